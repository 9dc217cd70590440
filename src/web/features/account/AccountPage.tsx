import type { ComponentType } from 'react';
import { DeleteAccountSection } from './DeleteAccountSection';
import { YourDataSection } from './YourDataSection';

/**
 * The sections of /account, in the order the page shows them (issue 33). Each is a component that renders one
 * <AccountSection>; settings come first, then the data rights.
 */
const SECTIONS: ComponentType[] = [YourDataSection, DeleteAccountSection];

/** The settings of the signed-in buyer, one section after another. */
export function AccountPage() {
  return (
    <div className="mx-auto max-w-6xl px-5 py-6 sm:px-6 md:py-8">
      {SECTIONS.map((Section, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed at build time, so a place is an identity.
        <Section key={index} />
      ))}
    </div>
  );
}
