import type { ComponentType } from 'react';
import { DeleteAccountSection } from './DeleteAccountSection';
import { EmailPreferencesSection } from './EmailPreferencesSection';
import { EmailSection } from './EmailSection';
import { PasskeysSection } from './PasskeysSection';
import { PasswordSection } from './PasswordSection';
import { ProfileSection } from './ProfileSection';
import { SessionsSection } from './SessionsSection';
import { YourDataSection } from './YourDataSection';

/**
 * The sections of /account, in the order the page shows them (issue 33). Each is a component that renders one
 * <AccountSection>; settings come first, then the data rights.
 */
const SECTIONS: ComponentType[] = [
  ProfileSection,
  PasswordSection,
  EmailSection,
  PasskeysSection,
  SessionsSection,
  EmailPreferencesSection,
  YourDataSection,
  DeleteAccountSection,
];

/** The settings of the signed-in buyer, one section after another. */
export function AccountSections() {
  return (
    <div className="mx-auto max-w-6xl px-5 py-6 sm:px-6 md:py-8">
      {SECTIONS.map((Section, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed at build time, so a place is an identity.
        <Section key={index} />
      ))}
    </div>
  );
}
