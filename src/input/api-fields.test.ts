import { describe, expect, it } from 'vitest';
import { fieldsBody, parseHeader, rawField, readsStdin, typedField } from './api-fields.js';

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

  it('builds arrays and objects from key[]=value and key[member]=value, as gh api does, in the order given', () => {
    const fields = [rawField('events[]=ENVELOPE_COMPLETED'), typedField('isActive=true'), rawField('events[]=ENVELOPE_VOIDED'), typedField('limits[daily]=5'), rawField('limits[tags][]=a')];
    expect(fieldsBody(fields)).toEqual({ events: ['ENVELOPE_COMPLETED', 'ENVELOPE_VOIDED'], isActive: true, limits: { daily: 5, tags: ['a'] } });
    expect(fieldsBody([rawField('events[]')])).toEqual({ events: [] });
    expect(JSON.stringify(fieldsBody([rawField('__proto__[polluted]=yes')]))).toBe('{"__proto__":{"polluted":"yes"}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a value given twice, a name used as a value and as an array, and brackets out of place', () => {
    expect(() => fieldsBody([rawField('title=a'), rawField('title=b')])).toThrow(/title is given twice/);
    expect(() => fieldsBody([rawField('events=a'), rawField('events[]=b')])).toThrow(/events\[\] is given twice, or both as one value and as an array/);
    expect(() => fieldsBody([rawField('a[b]=1'), rawField('a=2')])).toThrow(/a is given twice/);
    for (const name of ['a]', 'a[b', '[a]', 'a[]b', 'a[][]', 'a[]x[b]']) expect(() => fieldsBody([rawField(`${name}=1`)]), name).toThrow(/brackets go after the name/);
  });

  it('-F key=@- takes standard input, through the reader given', () => {
    expect(readsStdin('name=@-')).toBe(true);
    expect(readsStdin('name=@-x')).toBe(false);
    expect(typedField('name=@-', (path) => (path === '-' ? 'from stdin' : 'a file')).value).toBe('from stdin');
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
