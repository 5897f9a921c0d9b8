import { describe, expect, it } from 'vitest';
import { mailFailureReason } from '../../src/mail/mailer.js';
import { invitationMail } from '../../src/mail/templates.js';

describe('the invitation mail', () => {
  const base = { to: 'a@example.test', role: 'viewer', url: 'https://kb.test/invite/abc', expiresAt: new Date('2030-01-01T00:00:00Z') };

  it('keeps names on one line in the subject and escapes them in the HTML', () => {
    const mail = invitationMail({ ...base, inviterName: 'Eve\r\nBcc: x@evil.test', workspaceName: '<b>Ops</b> & Co' });
    expect(mail.subject).toBe('Eve Bcc: x@evil.test invited you to <b>Ops</b> & Co on kb');
    expect(mail.html).toContain('&#60;b&#62;Ops&#60;/b&#62; &#38; Co');
    expect(mail.html).not.toContain('<b>Ops');
    expect(mail.text).toContain(base.url);
    expect(mail.html).toContain(`href="${base.url}"`);
  });

  it('says why sending failed in a few words, without the server address', () => {
    expect(mailFailureReason(Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:25'), { code: 'ESOCKET' }))).toBe(
      'The mail server could not be reached (ESOCKET)',
    );
    expect(mailFailureReason(Object.assign(new Error('535 bad login'), { code: 'EAUTH' }))).toBe("The mail server refused the service's login (EAUTH)");
    expect(mailFailureReason(new Error('boom'))).toBe('Sending failed');
  });
});
