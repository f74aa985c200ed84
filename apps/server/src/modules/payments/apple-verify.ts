import {
  Environment,
  type JWSRenewalInfoDecodedPayload,
  type JWSTransactionDecodedPayload,
  SignedDataVerifier,
  VerificationException,
  VerificationStatus,
} from '@apple/app-store-server-library';
import {
  type AppleConfig,
  type AppleEnvironmentName,
  type Config,
  UNSIGNED_APPLE_ENVIRONMENTS,
} from '../../config.ts';

const ENVIRONMENTS: Record<AppleEnvironmentName, Environment> = {
  Sandbox: Environment.SANDBOX,
  Production: Environment.PRODUCTION,
  LocalTesting: Environment.LOCAL_TESTING,
  Xcode: Environment.XCODE,
};

export const appleEnvironment = (name: AppleEnvironmentName): Environment => ENVIRONMENTS[name];

/**
 * The one verifier of App Store signed data: Apple's roots from the configuration, the app's bundle
 * id, Apple ID and environment. LocalTesting and Xcode make the library skip every signature check,
 * so a production server refuses to build one with them, whatever its configuration says.
 */
export function createAppleVerifier(apple: AppleConfig, nodeEnv: Config['env']): SignedDataVerifier {
  if (nodeEnv === 'production' && UNSIGNED_APPLE_ENVIRONMENTS.includes(apple.environment)) {
    throw new Error(
      `APPLE_ENVIRONMENT=${apple.environment} skips Apple's signature checks: refused in production`,
    );
  }
  return new SignedDataVerifier(
    apple.rootCertificates,
    apple.onlineChecks,
    appleEnvironment(apple.environment),
    apple.bundleId,
    apple.appAppleId,
  );
}

/** A notification Apple did not sign for this app and environment: retrying will not help. */
export class AppleNotificationRefused extends Error {
  constructor(
    message: string,
    readonly status?: VerificationStatus,
  ) {
    super(message);
    this.name = 'AppleNotificationRefused';
  }
}

/** An App Store Server Notification V2 whose every signed part was verified. */
export interface AppleNotice {
  notificationUUID: string;
  type: string;
  subtype: string | undefined;
  environment: string | undefined;
  /** When Apple signed the notification (unix ms): the order of notifications, whatever order they arrive in. */
  signedDate: number;
  /** The notification's transaction and renewal info, each verified on its own. */
  transaction: JWSTransactionDecodedPayload | undefined;
  renewal: JWSRenewalInfoDecodedPayload | undefined;
}

async function verified<T>(what: string, check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if (error instanceof VerificationException) {
      // An OCSP responder that did not answer: Apple's delivery may succeed later.
      if (error.status === VerificationStatus.RETRYABLE_VERIFICATION_FAILURE) {
        throw new Error(`${what}: certificate status could not be checked now`, { cause: error });
      }
      throw new AppleNotificationRefused(`${what}: ${VerificationStatus[error.status]}`, error.status);
    }
    throw new AppleNotificationRefused(`${what}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Verifies a `signedPayload` and the transaction and renewal info inside it (signature chain up to
 * the configured roots, bundle id, app id, environment). Throws AppleNotificationRefused when any
 * part fails; a plain Error when the check itself could not be made (retryable).
 */
export async function verifyAppleNotification(
  verifier: SignedDataVerifier,
  signedPayload: string,
): Promise<AppleNotice> {
  const payload = await verified('notification', () => verifier.verifyAndDecodeNotification(signedPayload));
  if (!payload.notificationUUID || !payload.notificationType || !payload.signedDate) {
    throw new AppleNotificationRefused('notification: no notificationUUID, notificationType or signedDate');
  }
  const data = payload.data;
  const transaction = data?.signedTransactionInfo
    ? await verified('transaction', () =>
        verifier.verifyAndDecodeTransaction(data.signedTransactionInfo ?? ''),
      )
    : undefined;
  const renewal = data?.signedRenewalInfo
    ? await verified('renewal info', () => verifier.verifyAndDecodeRenewalInfo(data.signedRenewalInfo ?? ''))
    : undefined;
  if (
    transaction &&
    (!transaction.transactionId || !transaction.originalTransactionId || !transaction.productId)
  ) {
    throw new AppleNotificationRefused('transaction: no transactionId, originalTransactionId or productId');
  }
  if (
    renewal?.originalTransactionId &&
    renewal.originalTransactionId !== transaction?.originalTransactionId
  ) {
    throw new AppleNotificationRefused('renewal info: another subscription than the transaction');
  }
  return {
    notificationUUID: payload.notificationUUID,
    type: payload.notificationType,
    subtype: payload.subtype,
    environment: data?.environment,
    signedDate: payload.signedDate,
    transaction,
    renewal,
  };
}
