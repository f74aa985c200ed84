import type { CoreName } from '../config.ts';
import type { Logger } from '../log.ts';
import type { CoreDriver, CoreSettings } from './driver.ts';
import { ProxyCoreDriver } from './proxy-core-driver.ts';
import { v2rayDialect } from './v2ray-dialect.ts';
import { xrayDialect } from './xray-dialect.ts';

const DIALECTS = { xray: xrayDialect, v2ray: v2rayDialect };

export function createCoreDriver(core: CoreName, settings: CoreSettings, log: Logger): CoreDriver {
  return new ProxyCoreDriver(DIALECTS[core], settings, log.child({ core }));
}
