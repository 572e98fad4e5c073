// Drives Neo4j Browser, served by the local Neo4j server, in Debian's headless Chromium:
// connect with the password, wait for the PDPA guide the server opens on connect, run the
// guide's first saved query (cypher/browser/01_within_two_hops.cypher) from its runnable
// block, wait for the graph to draw, and save a screenshot. Prints one JSON line with what
// it saw; tests/e2e/test_browser.py judges it.
// Usage: node drive_browser.mjs <browser url> <password> <database> <screenshot.png>
import { chromium } from 'playwright-core';

const [browserUrl, password, database, screenshot] = process.argv.slice(2);
const seen = { connected: false, guide: false, style: false, nodes: 0, relationships: 0, errors: [] };
const chrome = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-background-networking', '--disable-gpu'],
});
const page = await chrome.newPage({ viewport: { width: 1600, height: 1000 } });
page.on('pageerror', (e) => seen.errors.push(String(e).slice(0, 200)));

async function runEditor() {
  await page.click('[data-testid="editor-Run"]');
}

async function runBlock(text) {
  // A runnable block of the guide goes into the editor on click; Run executes it.
  const block = page.locator('pre.runnable', { hasText: text }).first();
  await block.scrollIntoViewIfNeeded();
  await block.click();
  await page.waitForTimeout(300);
  await runEditor();
}

try {
  await page.goto(browserUrl, { waitUntil: 'load' });
  await page.fill('[data-testid="database"]', database);
  await page.fill('[data-testid="username"]', 'neo4j');
  await page.fill('[data-testid="password"]', password);
  await page.click('[data-testid="connect"]');
  await page.waitForSelector('text=You are connected as user', { timeout: 60000 });
  seen.connected = true;
  await page.waitForSelector('text=The PDPA as a graph', { timeout: 60000 });
  seen.guide = true;
  seen.style = (await page.locator('[data-testid="exportGraSSButton"]').count()) > 0;
  await runBlock(":param law => 'th-pdpa-2562'");
  await runBlock(":param section => '26'");
  await page.locator('[data-testid="nextSlide"]').first().click(); // slide 2: around a section
  await runBlock('Everything within two hops of a section');
  await page.waitForSelector('[data-testid="frame"] svg .node', { timeout: 60000 });
  await page.waitForTimeout(3000); // let the force layout settle before the screenshot
  seen.nodes = await page.locator('[data-testid="frame"] svg .node').count();
  seen.relationships = await page.locator('[data-testid="frame"] svg .relationship').count();
} catch (e) {
  seen.errors.push(String(e).slice(0, 500));
} finally {
  await page.screenshot({ path: screenshot, fullPage: false });
  await chrome.close();
  console.log(JSON.stringify(seen));
}
