import { useEffect, useState } from 'react';
import {
  ACCOUNT_MESSAGES,
  EMAIL_TOPIC_LABELS,
  EMAIL_TOPICS,
  type EmailPreferences,
  type EmailTopic,
} from '../../../shared/account';
import { Checkbox, FormError } from '../../components/form';
import { AccountSection } from './AccountSection';
import { accountApi } from './api';
import { failureMessage, SavedNote, useSavedNote } from './SavedNote';

export function EmailPreferencesSection() {
  return (
    <AccountSection
      id="email-preferences"
      title="Email preferences"
      description="The emails you can turn off. Codes, purchases, licenses, invoices and notices about your account are always sent."
    >
      {() => <Preferences />}
    </AccountSection>
  );
}

/** Each checkbox saves itself (PATCH), so the links in the emails and this page always agree. */
function Preferences() {
  const [preferences, setPreferences] = useState<EmailPreferences | null>(null);
  const [error, setError] = useState<string | null>(null);
  const saved = useSavedNote();

  useEffect(() => {
    accountApi.emailPreferences().then(setPreferences, (failure: unknown) => {
      console.error('Failed to load email preferences', failure);
      setError('Your email preferences could not be loaded. Please reload the page.');
    });
  }, []);

  const change = async (topic: EmailTopic, on: boolean) => {
    setError(null);
    saved.clear();
    setPreferences((current) => (current ? { ...current, [topic]: on } : current));
    try {
      setPreferences(await accountApi.setEmailPreferences({ [topic]: on }));
      saved.show(ACCOUNT_MESSAGES.preferencesSaved);
    } catch (failure) {
      setPreferences((current) => (current ? { ...current, [topic]: !on } : current));
      setError(failureMessage(failure, 'Your email preferences could not be saved.'));
    }
  };

  if (!preferences)
    return error ? <FormError message={error} /> : <p className="text-sm text-slate-600">Loading...</p>;
  return (
    <fieldset className="space-y-2">
      <legend className="sr-only">Emails to receive</legend>
      {EMAIL_TOPICS.map((topic) => (
        <Checkbox
          key={topic}
          label={EMAIL_TOPIC_LABELS[topic]}
          checked={preferences[topic]}
          onCheckedChange={(on) => void change(topic, on)}
        />
      ))}
      <FormError message={error} />
      <SavedNote note={saved.note} />
    </fieldset>
  );
}
