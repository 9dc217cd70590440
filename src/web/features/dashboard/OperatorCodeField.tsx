import type { ComponentProps } from 'react';
import { TextField } from '../../components/form';

/** The code from the operator's authenticator app that a change of prices or of where data goes asks for. */
export function OperatorCodeField({
  label = 'Code from your authenticator app',
  ...props
}: Omit<ComponentProps<typeof TextField>, 'label' | 'inputMode' | 'autoComplete' | 'maxLength'> & {
  label?: string;
}) {
  return (
    <TextField {...props} label={label} inputMode="numeric" autoComplete="one-time-code" maxLength={7} />
  );
}
