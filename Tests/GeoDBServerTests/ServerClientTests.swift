// Real clients, unmodified, against `geodb serve` on SampleData: geopy's Nominatim and Photon geocoders (in
// a virtual environment this test sets up from PyPI) and the web page in headless Chromium (Selenium).
import Foundation
import Testing
import TestSupport

@Suite(.serialized) struct ServerClientTests {
    /// Debian's Python, whose packages (python3-selenium) a venv made with --system-site-packages sees.
    static let python = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "python3"

    /// A venv under .build with geopy, made once.
    static let geopyPython = Result { () throws -> String in
        let venv = TestPaths.root.appendingPathComponent(".build/test-venv").path
        let venvPython = venv + "/bin/python"
        if !FileManager.default.isExecutableFile(atPath: venvPython) {
            let made = try runProgram("/usr/bin/env", [python, "-m", "venv", "--system-site-packages", venv])
            guard made.status == 0 else { throw ServerTestError("python3 -m venv failed (install python3-venv): \(made.stderr)") }
        }
        let installed = try runProgram(venvPython, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "geopy==2.5.0"])
        guard installed.status == 0 else { throw ServerTestError("pip install geopy failed: \(installed.stderr)") }
        return venvPython
    }

    @Test func geopyNominatimAndPhotonGetTheirAnswers() throws {
        let server = try ServerProcess([try TestDatabases.liechtenstein()])
        defer { server.stop() }
        let script = TestPaths.root.appendingPathComponent("Tests/GeoDBServerTests/geopy-clients.py").path
        let run = try runProgram(try Self.geopyPython.get(), [script, "--url", server.baseURL])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("\"photon reverse\""), "\(run.stdout)")
    }

    /// The page in a real browser at a desktop's and a phone's size: the map opened on the data, suggestions
    /// while typing picked with the keyboard, result markers, a click on the map answered by reverse, a category
    /// nearby. The screenshots are kept in .build/test-artifacts/ (web-page.png, web-page-phone.png).
    @Test func theWebPageWorksInABrowser() throws {
        for needed in ["/usr/bin/chromium", "/usr/bin/chromedriver"] where !FileManager.default.isExecutableFile(atPath: needed) {
            Issue.record("\(needed) is missing: Tools/install-deps.sh chromium chromium-driver python3-selenium")
            return
        }
        let server = try ServerProcess([try TestDatabases.helsinki()])
        defer { server.stop() }
        let artifacts = TestPaths.root.appendingPathComponent(".build/test-artifacts")
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let screenshot = artifacts.appendingPathComponent("web-page.png").path
        try? FileManager.default.removeItem(atPath: screenshot)
        let script = TestPaths.root.appendingPathComponent("Tools/verify/test-web-page.py").path
        let run = try runProgram("/usr/bin/env", [Self.python, script, "--url", server.baseURL, "--screenshot", screenshot,
                                                  "--prefix", "Aleksant", "--expect", "Aleksanterinkatu"])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: screenshot))
    }
}
