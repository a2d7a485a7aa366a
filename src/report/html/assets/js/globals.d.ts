// The browser tests' view of the page's state (page.js's TM): window.__tm.
interface Window {
  __tm: any;
}
