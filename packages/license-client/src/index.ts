export {
  type Credentials,
  type LicenseAnswer,
  LicenseApiError,
  LicenseClient,
  type LicenseClientOptions,
  type LicenseCode,
  LicenseServerUnreachableError,
  type RenewalOffer,
  type UpdateCheckAnswer,
  type UpdateTarget,
} from './client';
export { type Edition, type Licensed, licensedFrom } from './entitlements';
export { type HeartbeatOptions, type Heartbeats, startHeartbeats } from './heartbeats';
export {
  type LicenseFileCheck,
  type LicenseFilePayload,
  type LicenseFileRefusal,
  type PublicKey,
  verifyLicenseFile,
} from './license-file';
export {
  CLIENT_VERSION,
  OFFLINE_REFUSALS,
  OfflineActivation,
  type OfflineActivationOptions,
  type OfflineCheck,
  type OfflineRefusal,
  type OfflineState,
  type OfflineStore,
  offlineStateFile,
} from './offline';
export { checkLicenseAtStart, type StartCheckOptions, type StartDecision } from './start-check';
export {
  type AvailableUpdate,
  type ReleaseKey,
  type UpdateArtifact,
  UpdateVerificationError,
} from './updates';
