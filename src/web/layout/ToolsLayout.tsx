import type { ReactNode } from 'react';
import { ChatButton } from '../components/ChatButton';
import { SiteFooter } from '../components/SiteFooter';
import { AuthProvider } from '../session/AuthContext';
import { ToolsNavbar } from './ToolsNavbar';

/** The frame of the three tools pages: the tools navbar with sign-in, the page, the footer and the chat button. */
export function ToolsLayout({ poll = false, children }: { poll?: boolean; children: ReactNode }) {
  return (
    <AuthProvider poll={poll}>
      <div className="flex min-h-screen flex-col bg-white">
        <ToolsNavbar />
        <main id="main" className="flex-1">
          {children}
          <ChatButton />
        </main>
        <SiteFooter />
      </div>
    </AuthProvider>
  );
}
