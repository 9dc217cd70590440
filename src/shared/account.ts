/** The buyer's account settings, shared by the server and the /account page. */

/** Optional mail a buyer can turn off; transactional mail is always sent. */
export const EMAIL_TOPICS = ['releases', 'trials'] as const;
export type EmailTopic = (typeof EMAIL_TOPICS)[number];
export type EmailPreferences = Record<EmailTopic, boolean>;

export const EMAIL_TOPIC_LABELS: Record<EmailTopic, string> = {
  releases: 'New versions of tools I own',
  trials: 'Reminders about my free trials',
};
