import { PRIVACY_POLICY } from '../content/privacy';
import { PolicyDocument } from '../features/policies/PolicyDocument';

export default function PrivacyPolicyPage() {
  return <PolicyDocument content={PRIVACY_POLICY} />;
}
