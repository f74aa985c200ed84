/** Hands the browser a file to save, under a name with today's date: `name-2026-01-31.ext`. */
export function saveFile(name: string, extension: string, blob: Blob): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = `${name}-${new Date().toISOString().slice(0, 10)}.${extension}`;
  link.click();
  URL.revokeObjectURL(link.href);
}
