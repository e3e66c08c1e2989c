/** Reading a browser's user agent for people: "Chrome 131 on Windows". */

const BROWSERS: [RegExp, string][] = [
  [/Edg\/(\d+)/, 'Edge'],
  [/Firefox\/(\d+)/, 'Firefox'],
  [/Chrom(?:e|ium)\/(\d+)/, 'Chrome'],
  [/Version\/(\d+).*Safari/, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/Android/, 'Android'],
  [/iPhone|iPad/, 'iOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X/, 'macOS'],
  [/Linux/, 'Linux'],
];

/** "Chrome 131 on Windows" from a user agent; show the whole string in a title where there is room. */
export function browserOf(ua: string | null): string {
  if (!ua) return 'Unknown';
  const browser = BROWSERS.map(([re, name]) => {
    const m = re.exec(ua);
    return m ? `${name} ${m[1]}` : null;
  }).find(Boolean);
  const os = SYSTEMS.find(([re]) => re.test(ua))?.[1];
  if (!browser) return ua.length > 40 ? `${ua.slice(0, 40)}…` : ua;
  return os ? `${browser} on ${os}` : browser;
}
