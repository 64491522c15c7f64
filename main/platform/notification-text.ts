// The body of a desktop notification as the platform will read it. Linux notification servers
// (the freedesktop spec, libnotify) interpret a subset of markup in the body (<b>, <i>, <a href>,
// <img>, entities): text that came from the exchange or a page would be rendered, linked or fetched
// there, so it is escaped. macOS and Windows show the body as plain text, which escaping would spoil.

/** `text` as the body of a notification on `platform` (process.platform). */
export function notificationBody(text: string, platform: NodeJS.Platform): string {
  if (platform !== 'linux') return text;
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
