// Debian's Chromium for the page tests, started as this machine allows it: headless, no sandbox
// (root), and without the background networking that the closed network refuses at every start.
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const HEADLESS_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export function launchHeadless(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: HEADLESS_ARGS });
}
