// A session's device in a person's words ("Chrome 156 on Windows") from its User-Agent header, as
// account pages of the services people know list their sign-ins; the header itself stays in the
// row's tooltip. A client this does not recognise (curl, a script) is shown as it named itself.

const browsers: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/\bOPR\/(\d+)/, 'Opera'],
  [/\bFirefox\/(\d+)/, 'Firefox'],
  [/\bFxiOS\/(\d+)/, 'Firefox'],
  [/\bHeadlessChrome\/(\d+)/, 'Headless Chrome'],
  [/\bCriOS\/(\d+)/, 'Chrome'],
  [/\bChrome\/(\d+)/, 'Chrome'],
  [/\bVersion\/(\d+)(?:[.\d]*)? (?:Mobile\/\S+ )?Safari\//, 'Safari'],
];

const systems: [RegExp, string][] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

export function deviceName(userAgent: string): string {
  for (const [pattern, name] of browsers) {
    const version = pattern.exec(userAgent)?.[1];
    if (!version) continue;
    const system = systems.find(([systemPattern]) => systemPattern.test(userAgent))?.[1];
    return system ? `${name} ${version} on ${system}` : `${name} ${version}`;
  }
  return userAgent;
}
