/** Reloads the page; a module of its own so that tests can replace it. */
export function reloadPage(): void {
  window.location.reload();
}

/** Opens a path of the site as a new page load. */
export function openPage(path: string): void {
  window.location.assign(path);
}
