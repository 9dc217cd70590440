import { SHIPPING_POLICY } from '../content/shipping-policy';
import { PolicyDocument } from '../features/policies/PolicyDocument';

export default function ShippingPolicyPage() {
  return <PolicyDocument content={SHIPPING_POLICY} />;
}
