// The body of a desktop notification: Linux notification servers (libnotify) read a subset of
// markup in the body, so text that came from the exchange or a page (a refusal's message, the
// trader's note, a market's symbols) is escaped there and shown as the characters it is. Other
// platforms show the body as plain text and get it unchanged.
import { describe, expect, it } from 'vitest';
import { notificationBody } from '../../../../main/platform/notification-text';

describe('a desktop notification body', () => {
  const hostile = 'Alert: A signed request was refused: "<b>ok</b> <a href="https://x.example">claim</a> & <img src=x>"';

  it('escapes &, < and > for a Linux notification server, so no markup from the exchange is rendered', () => {
    const body = notificationBody(hostile, 'linux');
    expect(body).toBe('Alert: A signed request was refused: "&lt;b&gt;ok&lt;/b&gt; &lt;a href="https://x.example"&gt;claim&lt;/a&gt; &amp; &lt;img src=x&gt;"');
    expect(body).not.toMatch(/[<>]/);
    // An entity already in the text is shown as typed, not decoded.
    expect(notificationBody('5 &lt; 6', 'linux')).toBe('5 &amp;lt; 6');
  });

  it('leaves the body as it is where the platform shows plain text', () => {
    expect(notificationBody(hostile, 'darwin')).toBe(hostile);
    expect(notificationBody(hostile, 'win32')).toBe(hostile);
  });
});
