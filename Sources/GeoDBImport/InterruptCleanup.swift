// Removes an import's temporary file when the process is interrupted (Ctrl-C, SIGTERM).
import Foundation

/// Holds the one temporary path of the running import; a signal handler unlinks it and exits.
/// Only async-signal-safe calls (unlink, _exit) run in the handler, on a path copied ahead of time.
public enum InterruptCleanup {
    nonisolated(unsafe) private static var path: UnsafeMutablePointer<CChar>?
    nonisolated(unsafe) private static var journalPath: UnsafeMutablePointer<CChar>?
    nonisolated(unsafe) private static var installed = false

    /// Installs handlers for SIGINT, SIGTERM and SIGHUP; call once from a command-line program.
    public static func install() {
        guard !installed else { return }
        installed = true
        // A parent may start us with these signals blocked (some process launchers do): unblock them.
        var set = sigset_t()
        sigemptyset(&set)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, signalNumber) }
        sigprocmask(SIG_UNBLOCK, &set, nil)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber) { number in
                if let path = InterruptCleanup.path { unlink(path) }
                if let journal = InterruptCleanup.journalPath { unlink(journal) }
                _exit(128 + number)
            }
        }
    }

    static func register(_ temporary: String) {
        unregister()
        path = strdup(temporary)
        journalPath = strdup(temporary + "-journal")
    }

    static func unregister() {
        let old = path, oldJournal = journalPath
        path = nil
        journalPath = nil
        free(old)
        free(oldJournal)
    }
}
