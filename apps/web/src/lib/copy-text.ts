/**
 * Copies text to the clipboard; resolves false when it could not. Uses the Clipboard API, and the
 * old hidden-textarea `execCommand('copy')` where that API is missing (an insecure origin, an old
 * browser) or refuses.
 */
export async function copyText(text: string): Promise<boolean> {
  if (typeof navigator !== 'undefined' && navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // Denied or not focused: try the old way below.
    }
  }
  return copyWithTextarea(text);
}

function copyWithTextarea(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.top = '0';
  area.style.left = '0';
  area.style.opacity = '0';
  document.body.appendChild(area);
  try {
    area.select();
    // Deprecated, but the only way left when the Clipboard API is unavailable.
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}
