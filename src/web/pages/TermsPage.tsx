import { TERMS } from '../content/terms';
import { PolicyDocument } from '../features/policies/PolicyDocument';

export default function TermsPage() {
  return <PolicyDocument content={TERMS} />;
}
