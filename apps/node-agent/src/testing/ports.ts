// One way to find a free port on loopback, shared with the panel's tests.
export { freePort } from '../../../server/src/testing/v2ray.ts';
