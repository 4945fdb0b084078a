/** The usage period (calendar month, UTC) the server meters in, as of now. */
export const usageMonth = () => new Date().toISOString().slice(0, 7);

/**
 * Run a test whose counts are per calendar month (UTC). A run that crosses midnight at the end
 * of a month sees part of its usage in each month; if `fn` fails and the month changed while
 * it ran, it is run once more, wholly in the new month (it must seed its own data).
 */
export async function inOneUsageMonth<T>(fn: () => Promise<T>): Promise<T> {
  const month = usageMonth();
  try {
    return await fn();
  } catch (e) {
    if (usageMonth() === month) throw e;
    return fn();
  }
}
