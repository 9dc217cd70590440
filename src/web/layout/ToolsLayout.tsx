import type { ReactNode } from 'react';
import { ChatButton } from '../components/ChatButton';
import { SiteFooter } from '../components/SiteFooter';
import { SkipLink } from '../components/SkipLink';
import { AuthProvider } from '../session/AuthContext';
import { AuthDialogsMount } from './AuthDialogsMount';
import { SignInGate } from './SignInGate';
import { ToolsNavbar } from './ToolsNavbar';

/**
 * The frame of the three tools pages: a skip link, the tools navbar with sign-in, the page, the footer and the chat
 * button (and the sign-in dialogs, drawn from the session's state), with room at the foot of the footer on phones so the button covers nothing when scrolled to the end (the
 * footer's own colour, not a white strip below it).
 */
export function ToolsLayout({
  poll = false,
  ownMain = false,
  children,
}: {
  poll?: boolean;
  /** The page draws its own <main> (the API reference's renderer does): the frame wraps it in a plain box. */
  ownMain?: boolean;
  children: ReactNode;
}) {
  const Main = ownMain ? 'div' : 'main';
  return (
    <AuthProvider poll={poll}>
      <div className="tools-frame flex min-h-screen flex-col bg-white max-md:[&>footer]:pb-20">
        <SkipLink />
        <ToolsNavbar />
        <Main id="main" tabIndex={-1} className="flex-1 outline-none">
          <SignInGate>{children}</SignInGate>
          {ownMain ? (
            // Outside <main>, the button still sits in a landmark.
            <aside aria-label="Chat">
              <ChatButton />
            </aside>
          ) : (
            <ChatButton />
          )}
        </Main>
        <SiteFooter />
      </div>
      <AuthDialogsMount />
    </AuthProvider>
  );
}
