/**
 * The width a terminal reports, or undefined when it reports none: a pseudo-terminal nobody sized (`script` in a CI
 * job, a container's 0x0 pty) says 0 columns, and dividing a line by 0 columns gives it infinitely many rows to clear.
 */
export function reportedColumns(stream: { isTTY?: boolean; columns?: number }): number | undefined {
  const columns = stream.isTTY ? stream.columns : undefined;
  return columns !== undefined && Number.isInteger(columns) && columns > 0 ? columns : undefined;
}
