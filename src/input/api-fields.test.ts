import { describe, expect, it } from 'vitest';
import { parseHeader, rawField, typedField } from './api-fields.js';

describe('esign api fields (gh api rules)', () => {
  it('-f keeps every value a string', () => {
    expect(rawField('count=3')).toEqual({ name: 'count', value: '3' });
    expect(rawField('q=a=b')).toEqual({ name: 'q', value: 'a=b' });
  });

  it('-F reads numbers, booleans, null and @file; the rest stays a string', () => {
    expect(typedField('limit=50').value).toBe(50);
    expect(typedField('ratio=-1.5e2').value).toBe(-150);
    expect(typedField('isActive=false').value).toBe(false);
    expect(typedField('deadline=null').value).toBeNull();
    expect(typedField('id=007').value).toBe('007');
    expect(typedField('name=Ada').value).toBe('Ada');
    expect(typedField('message=@note.txt', (path) => `text of ${path}`).value).toBe('text of note.txt');
  });

  it('refuses a field without = and an unreadable @file, saying which', () => {
    expect(() => rawField('title')).toThrow(/-f "title": expected key=value/);
    expect(() => typedField('x=@/nonexistent/file')).toThrow('-F x=@/nonexistent/file: /nonexistent/file: no such file.');
  });

  it('reads -H "Name: value" and never takes a key from the command line', () => {
    expect(parseHeader('X-Trace: abc: def')).toEqual(['X-Trace', 'abc: def']);
    expect(() => parseHeader('no colon')).toThrow(/expected "Name: value"/);
    expect(() => parseHeader('Authorization: Bearer x')).toThrow(/not accepted/);
  });

  it('refuses -H without a name, and keeps a line break or control character at either end for the check to refuse', () => {
    expect(() => parseHeader(': value')).toThrow(/-H ": value": expected "Name: value"/);
    expect(() => parseHeader(' \t: value')).toThrow(/expected "Name: value"/);
    expect(parseHeader('X-Trace:\t abc \t')).toEqual(['X-Trace', 'abc']);
    expect(() => parseHeader('X-Trace: abc\r\n')).toThrow(/-H X-Trace: the value "abc\\r\\n" holds a character/);
    expect(() => parseHeader('X-Trace: \u0001abc')).toThrow(/holds a character a header cannot carry/);
    expect(() => parseHeader('Host: evil.example.com')).toThrow(/-H Host is not accepted/);
  });
});
