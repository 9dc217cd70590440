import { REFUND_POLICY } from '../content/refund-policy';
import { PolicyDocument } from '../features/policies/PolicyDocument';

export default function RefundPolicyPage() {
  return <PolicyDocument content={REFUND_POLICY} />;
}
