import { expect } from '@playwright/test';
import type { TestSmtpServer } from '../../test/support/smtp';

/** Signs up through the API as the sign-up dialog does, with the code read from the email the server sent. */
export async function signUpByApi(
  baseUrl: string,
  smtp: TestSmtpServer,
  person: { name: string; email: string } & Record<string, string>,
): Promise<void> {
  const cookies = new Map<string, string>();
  const call = async (url: string, body?: URLSearchParams) => {
    const response = await fetch(`${baseUrl}${url}`, {
      method: body ? 'POST' : 'GET',
      headers: {
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        'x-csrftoken': cookies.get('csrftoken') ?? '',
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body,
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const [name, ...value] = (pair ?? '').split('=');
      if (name) cookies.set(name.trim(), value.join('='));
    }
    expect(response.status, `${url}: ${await response.clone().text()}`).toBe(200);
  };
  await call('/api/csrf-token/');
  await call('/api/auth/send-otp/', new URLSearchParams({ name: person.name, email: person.email }));
  // The code's own email: one sent earlier (a team invitation) may hold a 4-digit number too, such as a year.
  const mail = await smtp.waitFor(
    (m) => m.to.includes(person.email) && m.subject === 'Your verification code',
  );
  const otp = /\b(\d{4})\b/.exec(mail.text)?.[1] as string;
  await call('/api/auth/initiate-signup/', new URLSearchParams({ ...person, otp }));
}
