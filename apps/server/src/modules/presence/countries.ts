import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { Reader, type Response } from 'mmdb-lib';

/** An address as the nodes report it, in one spelling: IPv4-mapped IPv6 as IPv4, IPv6 in lower case. */
export function normalAddress(text: string): string | undefined {
  const address = text.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address)?.[1];
  if (mapped && isIPv4(mapped)) return mapped;
  return isIPv4(address) || isIPv6(address) ? address : undefined;
}

/** The database's records: `{ "country_code": "JP" }` (not one of the library's MaxMind shapes). */
type CountryRecord = Response & { country_code?: string };

let reader: Reader<CountryRecord> | undefined;

/** Addresses no country owns (the database puts some in one all the same): private, shared, local. */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

function openDatabase(): Reader<CountryRecord> {
  const require = createRequire(import.meta.url);
  const file = require.resolve('@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb');
  return new Reader<CountryRecord>(readFileSync(file));
}

/**
 * The country an address is registered in (ISO 3166 code), from an offline database (ip-location-db's
 * geo-whois-asn-country, public domain, read once into memory): undefined for private networks and
 * addresses it does not know.
 */
export function countryOf(address: string): string | undefined {
  if (NOT_PUBLIC.check(address, isIPv4(address) ? 'ipv4' : 'ipv6')) return undefined;
  reader ??= openDatabase();
  const code = reader.get(address)?.country_code;
  return code && /^[A-Z]{2}$/.test(code) ? code : undefined;
}
