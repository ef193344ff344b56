import { describe, expect, it } from 'vitest';
import { UsageError } from '../core/errors.js';
import { listenFailure } from './listen-failure.js';

const failure = (code: string) => Object.assign(new Error(`listen ${code}`), { code });

describe('listenFailure', () => {
  it.each([
    ['EADDRINUSE', '127.0.0.1', 'PORT_IN_USE', 'Port 8080 is already in use (127.0.0.1:8080).'],
    ['EACCES', '::1', 'PORT_NOT_PERMITTED', 'This user may not listen on port 8080 ([::1]:8080).'],
    ['EADDRNOTAVAIL', '127.0.0.2', 'HOST_NOT_AVAILABLE', 'No network interface of this machine has the address 127.0.0.2.'],
  ])('tells a person that %s on %s is the machine or the flags, not a bug (exit 2)', (code, host, usageCode, message) => {
    const error = listenFailure(failure(code), host, 8080);
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toMatchObject({ code: usageCode, message, exitCode: 2 });
  });

  it('gives back any other failure as it was', () => {
    const other = failure('EMFILE');
    expect(listenFailure(other, '127.0.0.1', 8080)).toBe(other);
  });
});
