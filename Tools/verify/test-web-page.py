#!/usr/bin/python3
"""Drives the page of `geodb serve` in headless Chromium as a person would, and saves a screenshot.

Needs Debian's chromium, chromium-driver and python3-selenium (Tools/install-deps.sh chromium chromium-driver
python3-selenium); run with /usr/bin/python3, which has Debian's selenium. Against the mock:

    Tools/verify/web-page-mock.py --port 8765 &
    Tools/verify/test-web-page.py --url http://127.0.0.1:8765 --screenshot /tmp/page.png

Steps: the map draws; typing a prefix suggests the expected name with a bold highlight; picking it shows its
details and draws it (.selected) on the map; a click on the map says what is there; a category's Nearby lists
places (and More, when offered, appends more). Prints one line of JSON; exits 0 when every step passed, else 1
after naming the step that failed (the screenshot is saved either way).
"""
import argparse
import json
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

TIMEOUT = 10


class StepFailed(Exception):
    pass


def main():
    parser = argparse.ArgumentParser(description="Selenium test of the geodb web page.")
    parser.add_argument("--url", required=True, help="the server, e.g. http://127.0.0.1:8080")
    parser.add_argument("--screenshot", required=True, help="PNG to save at the end (also on failure)")
    parser.add_argument("--prefix", default="Aleksant", help="text typed into the search box")
    parser.add_argument("--expect", default="Aleksanterinkatu", help="text a suggestion must contain")
    parser.add_argument("--category", help="category id for Nearby (default: the first offered)")
    args = parser.parse_args()

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,800"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)

    summary = {"ok": False, "url": args.url}
    started = time.monotonic()
    step = "start"

    def wait_for(what, condition, timeout=TIMEOUT):
        """Waits until condition(driver) is truthy and returns it; on timeout fails the step, saying `what`."""
        try:
            # The map is redrawn whenever its data arrives: an element found a moment ago may be gone; look again.
            return WebDriverWait(driver, timeout, poll_frequency=0.1,
                                 ignored_exceptions=(StaleElementReferenceException,)).until(condition)
        except Exception as e:   # a timeout, or an exception the condition raised
            raise StepFailed(f"timed out after {timeout} s waiting for {what}" +
                             ("" if type(e).__name__ == "TimeoutException" else f" ({type(e).__name__}: {e})"))

    def text(css):
        # Read in the page in one step, so that a redraw between finding and reading cannot make it stale.
        return (driver.execute_script("const e = document.querySelector(arguments[0]); return e ? e.innerText : ''", css)
                or "").strip()

    try:
        step = "load the page and draw the map"
        driver.get(args.url.rstrip("/") + "/")
        summary["map_elements"] = wait_for("an svg path or circle in #map", lambda d: len(
            d.find_elements(By.CSS_SELECTOR, "#map path, #map circle")))

        step = f"suggest '{args.expect}' for '{args.prefix}'"
        box = driver.find_element(By.ID, "q")
        box.click()
        box.send_keys(args.prefix)

        def matching_suggestion(d):
            items = d.find_elements(By.CSS_SELECTOR, "#suggestions li.suggestion")
            return next((li for li in items if args.expect in li.text), None)
        # A list answering an earlier keystroke may be replaced by the next one's while it is read: then the
        # suggestion is found again (a few times at most).
        for attempt in range(5):
            try:
                suggestion = wait_for(f"a suggestion containing '{args.expect}'", matching_suggestion)
            except StepFailed as e:
                seen = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#suggestions li.suggestion")]
                raise StepFailed(f"{e}; suggestions seen: {seen}")
            try:
                summary["suggestions"] = len(driver.find_elements(By.CSS_SELECTOR, "#suggestions li.suggestion"))
                bold = [b.text for b in suggestion.find_elements(By.TAG_NAME, "b")]
                if not any(bold):
                    raise StepFailed(f"the suggestion '{suggestion.text}' has no <b> highlight")
                summary["picked"], summary["highlighted"] = suggestion.text, bold
                suggestion.click()
                break
            except StaleElementReferenceException:
                if attempt == 4:
                    raise
                time.sleep(0.2)

        step = "pick the suggestion: details and the selected place on the map"
        wait_for(f"#details to contain '{args.expect}'", lambda d: args.expect in text("#details"))
        summary["selected_element"] = wait_for("a .selected element in #map", lambda d: d.execute_script(
            "const e = document.querySelector('#map .selected'); return e ? e.tagName : null"))
        summary["details"] = text("#details .name") or text("#details").splitlines()[0]

        step = "click the middle of the map: reverse geocoding"
        svg = driver.find_element(By.ID, "map")
        ActionChains(driver).move_to_element(svg).click().perform()
        summary["reverse"] = wait_for("#reverse to show an answer", lambda d: (
            lambda t: t if t and not t.startswith("Looking") else None)(text("#reverse")))
        wait_for("a marker at the clicked point", lambda d: d.find_elements(By.CSS_SELECTOR, "#map .reverse-marker"))

        step = "pick a category and list Nearby"
        wait_for("#category to offer a category", lambda d: len(
            [o for o in Select(d.find_element(By.ID, "category")).options if o.get_attribute("value")]))
        select = Select(driver.find_element(By.ID, "category"))
        if args.category:
            select.select_by_value(args.category)
        else:
            select.select_by_value(next(o.get_attribute("value") for o in select.options if o.get_attribute("value")))
        summary["category"] = select.first_selected_option.get_attribute("value")
        driver.find_element(By.ID, "nearby").click()
        summary["nearby"] = wait_for("items in #nearby-results", lambda d: len(
            d.find_elements(By.CSS_SELECTOR, "#nearby-results li")))

        more = driver.find_element(By.ID, "more")
        if more.is_displayed():
            step = "fetch the next page of Nearby with More"
            before = summary["nearby"]
            more.click()
            summary["nearby_after_more"] = wait_for("More to append items to #nearby-results", lambda d: (
                lambda n: n if n > before else None)(len(d.find_elements(By.CSS_SELECTOR, "#nearby-results li"))))

        step = "no script errors"
        errors = [entry["message"] for entry in driver.get_log("browser")
                  if entry["level"] == "SEVERE" and "Uncaught" in entry["message"]]
        if errors:
            raise StepFailed(f"the page threw: {errors[:3]}")
        if driver.find_elements(By.CSS_SELECTOR, "#status.error") and text("#status"):
            summary["status_error"] = text("#status")   # reported, not failed: a slow server's 503 is no page bug
        summary["ok"] = True
    except StepFailed as e:
        summary.update(step=step, error=str(e))
    except Exception as e:   # Selenium or the browser broke: still a failed step, with a screenshot
        summary.update(step=step, error=f"{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}")
    finally:
        try:
            driver.save_screenshot(args.screenshot)
            summary["screenshot"] = args.screenshot
        except Exception as e:
            summary["screenshot_error"] = str(e)
        driver.quit()
    summary["seconds"] = round(time.monotonic() - started, 2)
    if not summary["ok"]:
        print(f"FAILED: {summary['step']}: {summary['error']}", file=sys.stderr)
    print(json.dumps(summary, ensure_ascii=False))
    return 0 if summary["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
