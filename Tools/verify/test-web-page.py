#!/usr/bin/python3
"""Drives the page of `geodb serve` in headless Chromium as a person would, at a desktop's and a phone's size,
and saves a screenshot of each.

Needs Debian's chromium, chromium-driver and python3-selenium (Tools/install-deps.sh chromium chromium-driver
python3-selenium); run with /usr/bin/python3, which has Debian's selenium. Against the mock:

    Tools/verify/web-page-mock.py --port 8765 &
    Tools/verify/test-web-page.py --url http://127.0.0.1:8765 --screenshot-dir /tmp/page

Steps, at each size (desktop 1280×800, phone 390×844): the map opens on the data (its centre inside a served
file's extent) and draws it, with the data's attribution; typing a prefix suggests the expected name with a
bold highlight, ArrowDown reaches it and Enter picks it: details, the selected place drawn (.selected) and a
marker per result; Enter searches, ArrowDown goes from the box into the results, through them, and Enter picks
one (focus visible, aria-selected); Escape closes the suggestions, then clears the box; a click on the map says
what is there; a category's Nearby lists places (and More, when offered, appends more). On the phone the map is
above the list, full width and at least 45 % of the height. Prints one line of JSON; exits 0 when every step
passed at every size, else 1 after naming the step that failed (the screenshots are saved either way).
"""
import argparse
import json
import os
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

TIMEOUT = 10
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


class StepFailed(Exception):
    pass


def main():
    parser = argparse.ArgumentParser(description="Selenium test of the geodb web page.")
    parser.add_argument("--url", required=True, help="the server, e.g. http://127.0.0.1:8080")
    shots = parser.add_mutually_exclusive_group(required=True)
    shots.add_argument("--screenshot-dir", help="folder for desktop.png and phone.png (saved also on failure)")
    shots.add_argument("--screenshot", help="PNG of the desktop size; the phone's is saved beside it as NAME-phone.png")
    parser.add_argument("--sizes", default="desktop,phone", help="which of desktop (1280×800), phone (390×844)")
    parser.add_argument("--prefix", default="Aleksant", help="text typed into the search box")
    parser.add_argument("--expect", default="Aleksanterinkatu", help="text a suggestion must contain")
    parser.add_argument("--category", help="category id for Nearby (default: the first offered)")
    parser.add_argument("--attribution", default="OpenStreetMap", help="text the map's attribution must contain")
    args = parser.parse_args()

    summary = {"ok": True, "url": args.url}
    for size in args.sizes.split(","):
        if args.screenshot_dir:
            os.makedirs(args.screenshot_dir, exist_ok=True)
            path = os.path.join(args.screenshot_dir, f"{size}.png")
        else:
            stem, ext = os.path.splitext(args.screenshot)
            path = args.screenshot if size == "desktop" else f"{stem}-{size}{ext or '.png'}"
        summary[size] = run(args, size, path)
        summary["ok"] = summary["ok"] and summary[size]["ok"]
        if not summary[size]["ok"]:
            print(f"FAILED at {size}: {summary[size]['step']}: {summary[size]['error']}", file=sys.stderr)
    print(json.dumps(summary, ensure_ascii=False))
    return 0 if summary["ok"] else 1


def run(args, size, screenshot):
    """Every step at one window size; a summary with ok, or the step that failed and why."""
    width, height = SIZES[size]
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={width},{height}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    # The window's size is not the page's (the window has a frame, and no window is narrower than 500 px): the
    # page's viewport is set exactly, as a phone's for the phone.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": size == "phone"})

    summary = {"ok": False}
    started = time.monotonic()
    step = "start"

    def wait_for(what, condition, timeout=TIMEOUT):
        """Waits until condition(driver) is truthy and returns it; on timeout fails the step, saying `what`."""
        try:
            # Lists are redrawn whenever an answer arrives: an element found a moment ago may be gone; look again.
            return WebDriverWait(driver, timeout, poll_frequency=0.1,
                                 ignored_exceptions=(StaleElementReferenceException,)).until(condition)
        except Exception as e:   # a timeout, or an exception the condition raised
            raise StepFailed(f"timed out after {timeout} s waiting for {what}" +
                             ("" if type(e).__name__ == "TimeoutException" else f" ({type(e).__name__}: {e})"))

    def js(script, *arguments):
        return driver.execute_script(script, *arguments)

    def text(css):
        # Read in the page in one step, so that a redraw between finding and reading cannot make it stale.
        return (js("const e = document.querySelector(arguments[0]); return e ? e.innerText : ''", css) or "").strip()

    def count(css):
        return len(driver.find_elements(By.CSS_SELECTOR, css))

    def focused():
        """The focused element: its role, whether it is aria-selected, its text and whether its outline shows."""
        return js("""const e = document.activeElement, s = getComputedStyle(e), t = e.querySelector('.title');
                     return {id: e.id, role: e.getAttribute('role'), selected: e.getAttribute('aria-selected'), index: e.dataset.index,
                             text: t ? t.innerText : e.innerText, outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0};""")

    def is_stale(element):
        try:
            element.tag_name
            return False
        except StaleElementReferenceException:
            return True

    def type_into_box(keys):
        box = driver.find_element(By.ID, "q")
        box.click()
        box.send_keys(Keys.CONTROL, "a")
        box.send_keys(Keys.BACKSPACE)
        box.send_keys(keys)
        return box

    try:
        step = "load the page, open on the data and draw it"
        driver.get(args.url.rstrip("/") + "/")
        summary["viewport"] = js("return [innerWidth, innerHeight]")
        summary["map_features"] = wait_for("the base map (#map[data-features]) or a tile layer", lambda d: js(
            "return +document.getElementById('map').dataset.features || document.querySelectorAll('.leaflet-tile-loaded').length"))
        extents = js("""return fetch('/v1/status').then(r => r.json()).then(s => s.databases.map(d => d.extent).filter(Boolean))""")
        center = js("const c = geodbMap.getCenter(); return [c.lat, c.lng, geodbMap.getZoom()]")
        summary["opening_view"] = {"lat": round(center[0], 5), "lon": round(center[1], 5), "zoom": center[2]}
        if not any(e["min_lat"] <= center[0] <= e["max_lat"] and e["min_lon"] <= center[1] <= e["max_lon"] for e in extents):
            raise StepFailed(f"the map opened at {center} outside every served extent {extents}")
        summary["attribution"] = text(".leaflet-control-attribution")
        if args.attribution not in summary["attribution"]:
            raise StepFailed(f"the attribution '{summary['attribution']}' does not contain '{args.attribution}'")

        if size == "phone":
            step = "phone layout: the map above the list, full width, at least 45 % of the height"
            layout = js("""const m = document.getElementById('map').getBoundingClientRect(),
                                  p = document.getElementById('panel').getBoundingClientRect();
                           return {map_top: m.top, map_height: m.height, map_width: m.width, panel_top: p.top}""")
            summary["layout"] = layout
            if not (layout["map_top"] < layout["panel_top"] and layout["map_height"] >= 0.45 * summary["viewport"][1]
                    and layout["map_width"] >= summary["viewport"][0] - 1):
                raise StepFailed(f"the layout is {layout} in a viewport of {summary['viewport']}")

        step = f"suggest '{args.expect}' for '{args.prefix}', reach it with ArrowDown, pick it with Enter"
        box = type_into_box(args.prefix)
        suggestions = wait_for(f"a suggestion containing '{args.expect}'", lambda d: (
            lambda items: items if any(args.expect in t for t in items) else None)(
            js("return [...document.querySelectorAll('#suggestions li.suggestion')].map(li => li.innerText)")))
        summary["suggestions"] = len(suggestions)
        summary["highlighted"] = js("return [...document.querySelectorAll('#suggestions li.suggestion b')].map(b => b.innerText)")
        if not any(summary["highlighted"]):
            raise StepFailed(f"no suggestion has a <b> highlight: {suggestions}")
        for _ in range(len(suggestions)):
            box.send_keys(Keys.ARROW_DOWN)
            if args.expect in text("#suggestions li.active"):
                break
        else:
            raise StepFailed(f"ArrowDown never made a suggestion with '{args.expect}' active: {suggestions}")
        summary["picked"] = text("#suggestions li.active")
        box.send_keys(Keys.ENTER)
        wait_for(f"#details to contain '{args.expect}'", lambda d: args.expect in text("#details"))
        summary["details"] = text("#details .name")
        summary["selected_element"] = wait_for("the selected place drawn on the map (.selected)", lambda d: js(
            "const e = document.querySelector('#map .selected'); return e ? e.tagName : null"))
        summary["markers_after_pick"] = wait_for("result markers", lambda d: count(".leaflet-marker-icon.result-marker"))

        step = "search with Enter, go down into the results with the arrows, pick one with Enter"
        box = type_into_box(args.expect)
        before = driver.find_elements(By.CSS_SELECTOR, "#results li")   # the pick's list, until the search replaces it
        box.send_keys(Keys.ENTER)
        if before:
            wait_for("the search to replace the results", lambda d: is_stale(before[0]))
        rows = wait_for("rows in #results", lambda d: count("#results li[role=option]"))
        summary["results"] = rows
        summary["result_markers"] = wait_for(f"{rows} result markers", lambda d: (
            lambda n: n if n == rows else None)(count(".leaflet-marker-icon.result-marker")))
        wait_for("the suggestions to be closed", lambda d: count("#suggestions li") == 0)
        box.send_keys(Keys.ARROW_DOWN)
        first = wait_for("the first result to take the focus", lambda d: (lambda f: f if f["role"] == "option" else None)(focused()))
        target = 1 if rows > 1 else 0
        if target:
            driver.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
        row = focused()
        if row["role"] != "option" or row["index"] != str(target):
            raise StepFailed(f"ArrowDown in the results did not move on from the first: {row}")
        if not row["outline"]:
            raise StepFailed(f"the focused result shows no outline: {row}")
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        wait_for("the picked result to be aria-selected", lambda d: focused()["selected"] == "true")
        wait_for(f"#details to show the picked result '{row['text']}'", lambda d: row["text"] in text("#details .name"))
        summary["keyboard_pick"] = row["text"]

        step = "Escape closes the suggestions, then clears the box"
        box = type_into_box(args.prefix)
        try:
            wait_for("suggestions", lambda d: count("#suggestions li"))
        except StepFailed as e:
            raise StepFailed(f"{e}; focus on {focused()}, status '{text('#status')}'")
        box.send_keys(Keys.ESCAPE)
        wait_for("the suggestions to close", lambda d: count("#suggestions li") == 0)
        box.send_keys(Keys.ESCAPE)
        wait_for("the box to be cleared", lambda d: box.get_attribute("value") == "")

        step = "click the map: reverse geocoding"
        # Off the middle, where the picked result's marker is: a click on a marker picks the marker.
        map_element = driver.find_element(By.ID, "map")
        rect = map_element.rect
        ActionChains(driver).move_to_element_with_offset(map_element, -rect["width"] // 4, -rect["height"] // 5).click().perform()
        summary["reverse"] = wait_for("#reverse to show an answer", lambda d: (
            lambda t: t if t and not t.startswith(("Looking", "Click")) else None)(text("#reverse")))
        wait_for("a marker at the clicked point", lambda d: count("#map .reverse-marker"))

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
        summary["nearby"] = wait_for("items in #nearby-results", lambda d: count("#nearby-results li"))
        summary["nearby_markers"] = count("#map .nearby-marker")
        more = driver.find_element(By.ID, "more")
        if more.is_displayed():
            step = "fetch the next page of Nearby with More"
            before = summary["nearby"]
            more.click()
            summary["nearby_after_more"] = wait_for("More to append items to #nearby-results", lambda d: (
                lambda n: n if n > before else None)(count("#nearby-results li")))

        step = "no script errors"
        errors = [entry["message"] for entry in driver.get_log("browser")
                  if entry["level"] == "SEVERE" and "Uncaught" in entry["message"]]
        if errors:
            raise StepFailed(f"the page threw: {errors[:3]}")
        if count("#status.error") and text("#status"):
            summary["status_error"] = text("#status")   # reported, not failed: a slow server's 503 is no page bug
        summary["ok"] = True
    except StepFailed as e:
        summary.update(step=step, error=str(e))
    except Exception as e:   # Selenium or the browser broke: still a failed step, with a screenshot
        summary.update(step=step, error=f"{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}")
    finally:
        try:
            driver.save_screenshot(screenshot)
            summary["screenshot"] = screenshot
        except Exception as e:
            summary["screenshot_error"] = str(e)
        driver.quit()
    summary["seconds"] = round(time.monotonic() - started, 2)
    return summary


if __name__ == "__main__":
    sys.exit(main())
