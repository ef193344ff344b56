import { describe, expect, it } from 'vitest';
import { isUuid, uuidV5 } from './uuid.js';

const DNS_NAMESPACE = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';

describe('uuidV5', () => {
  it('matches the RFC 4122 v5 vector for www.example.com in the DNS namespace', () => {
    expect(uuidV5('www.example.com', DNS_NAMESPACE)).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });

  it('accepts the namespace in upper case', () => {
    expect(uuidV5('www.example.com', DNS_NAMESPACE.toUpperCase())).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });

  it('hashes the name as UTF-8', () => {
    const id = uuidV5('contrat signé', DNS_NAMESPACE);
    expect(isUuid(id)).toBe(true);
    expect(id).not.toBe(uuidV5('contrat signe', DNS_NAMESPACE));
  });

  it('refuses a namespace that is not a UUID', () => {
    expect(() => uuidV5('x', 'not-a-uuid')).toThrow(TypeError);
  });
});

describe('isUuid', () => {
  it('accepts any version in either case and refuses other strings', () => {
    expect(isUuid('2ED6657D-E927-568B-95E1-2665A8AEA6A2')).toBe(true);
    expect(isUuid('2ed6657d-e927-568b-95e1-2665a8aea6a')).toBe(false);
    expect(isUuid('')).toBe(false);
  });
});
