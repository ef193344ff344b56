/**
 * Byte sizes as people read them (`1.5 MB`), in progress lines and in the words of an error (an answer over a limit):
 * a unit of measure, not terminal rendering, so the layers that word errors can use it.
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
