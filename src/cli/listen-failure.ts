import { UsageError } from '../core/errors.js';

/**
 * What a server command tells a person whose port or address cannot be listened on: that is the machine's state or
 * the flags given, never a bug in esign (exit 2, nothing started). Anything else is given back as it was.
 */
export function listenFailure(error: unknown, host: string, port: number): unknown {
  const address = `${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return new UsageError(`Port ${port} is already in use (${address}).`, 'Stop what listens there, or pick another with --port (--port 0 for any free one).', 'PORT_IN_USE');
    case 'EACCES':
      return new UsageError(`This user may not listen on port ${port} (${address}).`, 'Pick a port above 1023 with --port, or --port 0 for any free one.', 'PORT_NOT_PERMITTED');
    case 'EADDRNOTAVAIL':
    // A name that does not resolve here (`localhost` missing from /etc/hosts).
    case 'ENOTFOUND':
      return new UsageError(`No network interface of this machine has the address ${host}.`, 'Listen on 127.0.0.1 or ::1.', 'HOST_NOT_AVAILABLE');
    default:
      return error;
  }
}
