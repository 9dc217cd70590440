import { ChatButton } from '../components/ChatButton';
import { PageHeader } from '../components/PageHeader';
import { SiteFooter } from '../components/SiteFooter';
import { ContactDetails } from '../features/contact/ContactDetails';
import { ContactForm } from '../features/contact/ContactForm';

export default function ContactPage() {
  return (
    <>
      <PageHeader />
      <main id="main" tabIndex={-1} className="outline-none">
        <div className="border-b border-slate-200 bg-gradient-to-b from-brand-50 to-white">
          <div className="mx-auto max-w-6xl px-5 pt-14 pb-12 sm:px-6 md:pt-20 md:pb-16">
            <p className="text-sm font-semibold tracking-wide text-accent-700 uppercase">Contact us</p>
            <h1 className="mt-3 text-4xl font-bold tracking-tight text-brand-900 sm:text-5xl">
              Get in Touch
            </h1>
            <p className="mt-4 max-w-2xl text-lg leading-relaxed text-slate-700">
              Questions about accounting, tax, business planning, a new website or one of our utility tools?
              Send us a message and the right person on our team will reply.
            </p>
          </div>
        </div>
        <div className="mx-auto grid max-w-6xl gap-8 px-5 py-12 sm:px-6 md:py-16 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] lg:gap-10">
          <ContactDetails />
          <section
            aria-labelledby="send-message-heading"
            className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8"
          >
            <h2 id="send-message-heading" className="text-2xl font-semibold tracking-tight text-brand-900">
              Send Us a Message
            </h2>
            <p className="mt-2 mb-7 text-slate-600">
              We usually need only a few lines to understand what you are looking for.
            </p>
            <ContactForm />
          </section>
        </div>
      </main>
      <SiteFooter />
      <aside aria-label="Chat">
        <ChatButton />
      </aside>
    </>
  );
}
