import { describe, expect, it } from 'vitest';
import { guardRedirect, normalizePath } from './route-guard.ts';

describe('guardRedirect, signed out', () => {
  it.each(['/login', '/download', '/privacy', '/service', '/use', '/promotionCount'])(
    'lets a visitor open %s (spec section 2)',
    (path) => expect(guardRedirect(path, false)).toBeNull(),
  );

  it.each(['/help', '/help/flclash', '/Help/Cannot-Connect/'])(
    'lets a visitor open the help center at %s (PRODUCT.md section 10)',
    (path) => expect(guardRedirect(path, false)).toBeNull(),
  );

  it.each(['/', '/website'])('lets a visitor open %s, which only redirects to /download', (path) =>
    expect(guardRedirect(path, false)).toBeNull(),
  );

  it.each(['/buy', '/order', '/invite', '/backstage', '/404', '/nope', '/download/extra', '/helpful'])(
    'sends a visitor of %s to /login',
    (path) => expect(guardRedirect(path, false)).toBe('/login'),
  );

  it('reads paths as the router does: any case, trailing slash ignored', () => {
    expect(guardRedirect('/Download/', false)).toBeNull();
    expect(guardRedirect('/promotioncount', false)).toBeNull();
    expect(guardRedirect('/BUY', false)).toBe('/login');
    expect(guardRedirect('/buy/', false)).toBe('/login');
  });
});

describe('guardRedirect, signed in', () => {
  it('sends a signed-in user who opens /login to /', () => {
    expect(guardRedirect('/login', true)).toBe('/');
    expect(guardRedirect('/Login/', true)).toBe('/');
  });

  it.each([
    '/',
    '/website',
    '/download',
    '/privacy',
    '/service',
    '/use',
    '/backstage',
    '/buy',
    '/order',
    '/invite',
    '/404',
    '/nope',
  ])('lets a signed-in user open %s', (path) => expect(guardRedirect(path, true)).toBeNull());
});

describe('normalizePath', () => {
  it('keeps the root and lower-cases', () => {
    expect(normalizePath('/')).toBe('/');
    expect(normalizePath('//')).toBe('/');
    expect(normalizePath('/Buy//')).toBe('/buy');
  });
});
