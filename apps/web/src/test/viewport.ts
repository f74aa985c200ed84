// happy-dom evaluates media queries against its viewport: tests of a page's phone layout set a
// phone's width, and return to the desktop width the other tests expect.
const happyDOM = (window as unknown as { happyDOM: { setViewport(size: { width: number }): void } }).happyDOM;

export const DESKTOP_WIDTH = window.innerWidth;
export const PHONE_WIDTH = 375;

export const setViewportWidth = (width: number) => happyDOM.setViewport({ width });
