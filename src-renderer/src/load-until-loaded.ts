/**
 * A chunk import that fails (the keeper restarting, a dropped connection) is asked again with a growing
 * delay instead of failing the page. Chromium fetches a failed dynamic import again on the next import().
 */
const RETRY_MS = [500, 1_000, 2_000, 5_000];

export async function loadUntilLoaded<T>(load: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await load();
    } catch {
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]));
    }
  }
}
