import { useEffect, useId, useState } from 'react';
import type { AuthUser } from '../../../shared/auth';
import { Modal } from '../../components/Modal';
import { SignupDetailsStep } from './SignupDetailsStep';
import { SignupVerifyStep } from './SignupVerifyStep';
import { type SignupStep, useSignupFlow } from './useSignupFlow';

/**
 * The Signup dialog (docs/product.md §2, §4, §5, §8): 'Create an Account', then 'Verify Your Email' with the emailed
 * 4-digit code, a 120 s resend countdown, and a reload 2 s after a successful registration.
 */
export function SignupDialog({
  open,
  onClose,
  onLogin,
  onLoggedIn,
  returnFocus,
}: {
  open: boolean;
  onClose: () => void;
  onLogin: () => void;
  onLoggedIn: (user: AuthUser) => void;
  returnFocus: () => HTMLElement | null;
}) {
  const [step, setStep] = useState<SignupStep>('details');
  useEffect(() => {
    if (!open) setStep('details');
  }, [open]);
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={step === 'details' ? 'Create an Account' : 'Verify Your Email'}
      className="max-w-lg"
      returnFocus={returnFocus}
    >
      <SignupFlow step={step} setStep={setStep} onClose={onClose} onLogin={onLogin} onLoggedIn={onLoggedIn} />
    </Modal>
  );
}

/** Mounted only while the dialog is open, so each opening starts with empty fields. */
function SignupFlow({
  step,
  setStep,
  onClose,
  onLogin,
  onLoggedIn,
}: {
  step: SignupStep;
  setStep: (step: SignupStep) => void;
  onClose: () => void;
  onLogin: () => void;
  onLoggedIn: (user: AuthUser) => void;
}) {
  const id = useId();
  const fieldId = (field: string) => `${id}-${field}`;
  const flow = useSignupFlow({ fieldId, setStep, onLoggedIn });
  return step === 'details' ? (
    <SignupDetailsStep flow={flow} fieldId={fieldId} onLogin={onLogin} onClose={onClose} />
  ) : (
    <SignupVerifyStep flow={flow} fieldId={fieldId} onClose={onClose} />
  );
}
