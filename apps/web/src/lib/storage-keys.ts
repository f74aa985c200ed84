/**
 * Every key this site keeps in the browser, in one place (no imports, so that the e2e journeys can
 * seed a signed-in session with the same names). Renaming one signs every user out.
 */
export const STORAGE_KEYS = {
  token: 'skyway.token',
  user: 'skyway.user',
  language: 'skyway.language',
  /** sessionStorage: an error to show after the reload that follows a forced sign-out. */
  flash: 'skyway.flash',
} as const;
