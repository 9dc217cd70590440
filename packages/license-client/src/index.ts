export {
  type Credentials,
  type LicenseAnswer,
  LicenseApiError,
  LicenseClient,
  type LicenseClientOptions,
  type LicenseCode,
  LicenseServerUnreachableError,
} from './client';
export {
  type LicenseFileCheck,
  type LicenseFilePayload,
  type PublicKey,
  verifyLicenseFile,
} from './license-file';
export { checkLicenseAtStart, type StartCheckOptions, type StartDecision } from './start-check';
