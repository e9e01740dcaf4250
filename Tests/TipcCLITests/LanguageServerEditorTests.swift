import Foundation
import Testing

/// `tipc lsp` with a real editor's client: Neovim, headless, through its built-in LSP client
/// (`scripts/setup.sh --tests` installs Debian's `neovim`; without it the test fails).
@Suite struct LanguageServerEditorTests {
    static let script = """
        local out = {}
        local function say(line) table.insert(out, line) end
        vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('TIPC_MANIFEST')))
        local buffer = vim.api.nvim_get_current_buf()
        local client_id = vim.lsp.start_client({ name = 'tipc', cmd = { os.getenv('TIPC_EXECUTABLE'), 'lsp' },
          root_dir = vim.fn.fnamemodify(os.getenv('TIPC_MANIFEST'), ':h') })
        vim.lsp.buf_attach_client(buffer, client_id)
        if not vim.wait(5000, function() return #vim.diagnostic.get(buffer) > 0 end, 10) then say('no diagnostics') end
        for _, d in ipairs(vim.diagnostic.get(buffer)) do
          local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or ''
          say(string.format('diagnostic %d:%d %s %s', d.lnum, d.col, code, (d.message:gsub('\\n', ' | '))))
        end
        local params = { textDocument = { uri = vim.uri_from_bufnr(buffer) },
          position = { line = tonumber(os.getenv('TIPC_LINE')), character = tonumber(os.getenv('TIPC_CHARACTER')) } }
        for _, response in pairs(vim.lsp.buf_request_sync(buffer, 'textDocument/completion', params, 5000) or {}) do
          local result = response.result or {}
          for _, item in ipairs(result.items or result) do say('completion ' .. item.label) end
        end
        vim.lsp.stop_client(client_id)
        vim.fn.writefile(out, os.getenv('TIPC_OUTPUT'))
        vim.cmd('qa!')
        """

    static func neovim() throws -> String {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/nvim" }
        return try #require(paths.first { FileManager.default.isExecutableFile(atPath: $0) },
                            "nvim is not installed: scripts/setup.sh --tests installs Debian's neovim")
    }

    @Test func neovimShowsTheDiagnosticOfATypoAndCompletesEventNames() throws {
        let nvim = try Self.neovim()
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.yaml", """
            tipkit: 1
            events:
              trailViewed: {}
            tips:
              offlineMaps:
                title: Hike without signal
                maxDisplayCont: 3
                rules:
                  - trailViewed.count >= 2
                  - trail

            """)
        let script = try folder.write("drive.lua", Self.script)
        let output = folder.path + "/out.txt"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: nvim)
        process.arguments = ["--headless", "--clean", "-c", "luafile " + script]
        var environment = ProcessInfo.processInfo.environment
        environment["TIPC_MANIFEST"] = manifest
        environment["TIPC_EXECUTABLE"] = try ExecutableTests.executable().path
        environment["TIPC_LINE"] = "9"
        environment["TIPC_CHARACTER"] = "13"
        environment["TIPC_OUTPUT"] = output
        environment["XDG_CACHE_HOME"] = folder.path + "/cache"
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.contains("diagnostic 6:4 unknown-key unknown key 'maxDisplayCont' in tip 'offlineMaps' | help: did you mean 'maxDisplayCount'?"))
        #expect(lines.contains("diagnostic 9:8 unknown-event no event named 'trail'"))
        let completions = lines.filter { $0.hasPrefix("completion ") }
        #expect(completions.first == "completion trailViewed")
        #expect(completions.contains("completion within"))
    }
}
