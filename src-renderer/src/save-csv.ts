/**
 * Saves CSV text as a download named `name`: a Blob URL, which the page's CSP allows and which asks no
 * other origin. The Queue, the wallet search and the earnings report export through it.
 */
export function saveCsvFile(name: string, csv: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  // After the click has started the download: revoking at once can cancel it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
