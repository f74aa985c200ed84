import { execFileSync } from 'node:child_process';
import { createPrivateKey, type KeyObject, sign, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Apple's marker extensions: the intermediate (WWDR) and the App Store receipt-signing leaf. */
export const APPLE_INTERMEDIATE_OID = '1.2.840.113635.100.6.2.1';
export const APPLE_LEAF_OID = '1.2.840.113635.100.6.11.1';

const EXTENSIONS = `
[root]
basicConstraints = critical, CA:true
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[intermediate]
basicConstraints = critical, CA:true, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
${APPLE_INTERMEDIATE_OID} = ASN1:NULL
[leaf]
basicConstraints = critical, CA:false
keyUsage = critical, digitalSignature
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
${APPLE_LEAF_OID} = ASN1:NULL
`;

/** A certificate chain made like Apple's, by openssl, in a temporary folder. */
export interface TestChain {
  dir: string;
  /** The root certificate's file (DER), for APPLE_ROOT_CERTS. */
  rootPath: string;
  rootPemPath: string;
  /** base64 DER, leaf first, as a JWS header's x5c carries them. */
  x5c: string[];
  leafKey: KeyObject;
  /** A leaf that signs for itself, carrying Apple's leaf extension: trusted by no one. */
  selfSigned: { x5c: string[]; key: KeyObject };
  remove(): void;
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

function makeKey(dir: string, name: string): void {
  openssl(dir, ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${name}.key`]);
}

function issue(dir: string, name: string, subject: string, issuer: string, section: string): void {
  makeKey(dir, name);
  openssl(dir, ['req', '-new', '-key', `${name}.key`, '-subj', subject, '-out', `${name}.csr`]);
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${issuer}.pem`,
    '-CAkey',
    `${issuer}.key`,
    '-set_serial',
    String(Date.now()),
    '-days',
    '30',
    '-sha256',
    '-extfile',
    'extensions.cnf',
    '-extensions',
    section,
    '-out',
    `${name}.pem`,
  ]);
}

function selfSign(dir: string, name: string, subject: string, section: string): void {
  makeKey(dir, name);
  openssl(dir, [
    'req',
    '-x509',
    '-new',
    '-key',
    `${name}.key`,
    '-subj',
    subject,
    '-days',
    '30',
    '-sha256',
    '-config',
    'extensions.cnf',
    '-extensions',
    section,
    '-out',
    `${name}.pem`,
  ]);
}

const derOf = (dir: string, name: string) =>
  new X509Certificate(readFileSync(path.join(dir, `${name}.pem`))).raw.toString('base64');
const keyOf = (dir: string, name: string) => createPrivateKey(readFileSync(path.join(dir, `${name}.key`)));

/**
 * root → intermediate (Apple's intermediate extension) → leaf (Apple's leaf extension), all EC P-256,
 * valid for 30 days from now; and a self-signed leaf outside it.
 */
export function makeTestChain(): TestChain {
  const dir = mkdtempSync(path.join(tmpdir(), 'skyway-apple-'));
  // openssl req reads a distinguished-name section from its config even when -subj gives one.
  writeFileSync(path.join(dir, 'extensions.cnf'), `[req]\ndistinguished_name = dn\n[dn]\n${EXTENSIONS}`);
  selfSign(dir, 'root', '/CN=Skyway Test Root CA/O=Skyway Tests', 'root');
  issue(dir, 'intermediate', '/CN=Skyway Test WWDR/O=Skyway Tests', 'root', 'intermediate');
  issue(dir, 'leaf', '/CN=Skyway Test StoreKit Signing/O=Skyway Tests', 'intermediate', 'leaf');
  selfSign(dir, 'self', '/CN=Self Signed StoreKit/O=Skyway Tests', 'leaf');
  const rootPath = path.join(dir, 'root.der');
  writeFileSync(rootPath, new X509Certificate(readFileSync(path.join(dir, 'root.pem'))).raw);
  const self = derOf(dir, 'self');
  return {
    dir,
    rootPath,
    rootPemPath: path.join(dir, 'root.pem'),
    x5c: [derOf(dir, 'leaf'), derOf(dir, 'intermediate'), derOf(dir, 'root')],
    leafKey: keyOf(dir, 'leaf'),
    selfSigned: { x5c: [self, self, self], key: keyOf(dir, 'self') },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** A compact JWS as the App Store sends it: ES256 over header.payload, the chain in x5c. */
export function signJws(payload: object, signer: { x5c: string[]; key: KeyObject }): string {
  const header = base64url(JSON.stringify({ alg: 'ES256', x5c: signer.x5c }));
  const body = base64url(JSON.stringify(payload));
  const signature = sign('sha256', Buffer.from(`${header}.${body}`), {
    key: signer.key,
    dsaEncoding: 'ieee-p1363',
  });
  return `${header}.${body}.${base64url(signature)}`;
}

/** The same payload with no signature at all (`alg: none`), as a forger without a key would send it. */
export function unsignedJws(payload: object): string {
  return `${base64url(JSON.stringify({ alg: 'none' }))}.${base64url(JSON.stringify(payload))}.`;
}
