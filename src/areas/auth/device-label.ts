/** Browsers and clients by a marker in the user agent, most specific first (Edge and Opera also say "Chrome", Chrome also says "Safari"). */
const CLIENTS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/(?:Chrome|CriOS|Chromium)\//, 'Chrome'], // HeadlessChrome too
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/^curl\//i, 'curl'],
  [/^(?:node|undici)\b/i, 'Node.js'],
  [/^python-requests\//i, 'Python'],
  [/^kb\b/i, 'kb CLI'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\b(?:Macintosh|Mac OS X)\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/** A short readable name of a device from its user agent ("Chrome on Linux", "Firefox on Windows", "curl"); a plain guess, no database. */
export function deviceLabel(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const client = CLIENTS.find(([re]) => re.test(userAgent))?.[1] ?? userAgent.split(/[\s/]/)[0]?.slice(0, 40) ?? 'Unknown';
  const system = SYSTEMS.find(([re]) => re.test(userAgent))?.[1];
  return system ? `${client} on ${system}` : client || 'Unknown device';
}
