package lexgraph;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.neo4j.cli.ExecutionContext;
import org.neo4j.commandline.admin.security.SetInitialPasswordCommand;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.graphdb.QueryExecutionException;
import org.neo4j.server.CommunityBootstrapper;
import picocli.CommandLine;

/**
 * The local Neo4j 5 Community server of lexgraph's one-machine stack and of its tests.
 *
 * <p>It runs the same bootstrapper as Neo4j's own distribution ({@link CommunityBootstrapper}:
 * the DBMS, Bolt, and the HTTP server that serves Neo4j Browser from the {@code browser/}
 * folder on the classpath), configured from the command line instead of a {@code neo4j.conf}.
 * Everything it writes lives under {@code --home} (data, logs, run). The bootstrapper
 * installs its own SIGTERM/SIGINT handlers and shutdown hook, so a SIGTERM stops the DBMS
 * cleanly (checkpoint, store files closed) before the JVM exits.
 *
 * <p>Arguments: {@code --home DIR --bolt-port N --http-port N --database NAME
 * [--pagecache SIZE] [--tx-memory SIZE] [--set key=value]...}; the password of the
 * {@code neo4j} user comes from the environment variable {@code LEXGRAPH_NEO4J_PASSWORD}
 * (not the command line, which every local user can read in /proc). Once the server
 * answers and the password is set it writes its pid to {@code <home>/run/lexgraph.ready};
 * lexgraph waits for that file before it tries Bolt, so it never meets the default password.
 */
public final class LocalNeo4j {
    private static final String USER = "neo4j";

    private LocalNeo4j() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new LinkedHashMap<>();
        Map<String, String> extra = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (args[i].equals("--set")) {
                String[] kv = args[i + 1].split("=", 2);
                extra.put(kv[0], kv.length > 1 ? kv[1] : "");
            } else {
                opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
            }
        }
        Path home = Path.of(required(opts, "home")).toAbsolutePath();
        String password = System.getenv("LEXGRAPH_NEO4J_PASSWORD");
        if (password == null || password.length() < 8) {
            fail("LEXGRAPH_NEO4J_PASSWORD must hold the neo4j user's password (8+ characters)");
        }
        Path ready = home.resolve("run").resolve("lexgraph.ready");
        Files.createDirectories(home.resolve("conf"));
        Files.createDirectories(ready.getParent());
        Files.deleteIfExists(ready);
        Path conf = home.resolve("conf").resolve("neo4j.conf");
        if (!Files.exists(conf)) {
            Files.writeString(conf, "# Settings come from the lexgraph launcher's arguments.\n");
        }

        boolean firstStart = !Files.isDirectory(home.resolve("data").resolve("databases").resolve("system"));
        if (firstStart) {
            setInitialPassword(home, password);
        }

        Map<String, String> config = config(home, opts);
        config.putAll(extra);
        CommunityBootstrapper server = new CommunityBootstrapper();
        int code = server.start(home, conf, config, false, false);
        if (code != 0) {
            fail("Neo4j did not start (code " + code + "); see " + home.resolve("logs"));
        }
        if (!firstStart) {
            applyPassword(server.getDatabaseManagementService(), password);
        }
        Files.writeString(ready, ProcessHandle.current().pid() + "\n", StandardCharsets.UTF_8);
        System.out.println("lexgraph-neo4j: ready, Bolt on 127.0.0.1:" + opts.get("bolt-port")
                + ", Browser on http://127.0.0.1:" + opts.get("http-port") + "/browser/");
        // The bootstrapper's shutdown hook stops the DBMS; remove the marker with it.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                Files.deleteIfExists(ready);
            } catch (IOException ignored) {
                // the next start deletes it before anything reads it
            }
        }));
        Thread.currentThread().join();
    }

    private static Map<String, String> config(Path home, Map<String, String> opts) {
        String bolt = "127.0.0.1:" + required(opts, "bolt-port");
        String http = "127.0.0.1:" + required(opts, "http-port");
        Map<String, String> c = new LinkedHashMap<>();
        c.put("server.directories.data", home.resolve("data").toString());
        c.put("server.directories.logs", home.resolve("logs").toString());
        c.put("server.directories.run", home.resolve("run").toString());
        c.put("server.directories.import", home.resolve("import").toString());
        c.put("server.directories.plugins", home.resolve("plugins").toString());
        c.put("server.default_listen_address", "127.0.0.1");
        c.put("server.bolt.enabled", "true");
        c.put("server.bolt.listen_address", bolt);
        c.put("server.bolt.advertised_address", bolt);
        c.put("server.http.enabled", "true");
        c.put("server.http.listen_address", http);
        c.put("server.http.advertised_address", http);
        c.put("server.https.enabled", "false");
        c.put("dbms.security.auth_enabled", "true");
        // Community has one user database: give it the name lexgraph's settings use.
        c.put("initial.dbms.default_database", opts.getOrDefault("database", "neo4j"));
        c.put("server.memory.pagecache.size", opts.getOrDefault("pagecache", "256m"));
        c.put("dbms.memory.transaction.total.max", opts.getOrDefault("tx-memory", "512m"));
        c.put("dbms.usage_report.enabled", "false");
        // Browser: guides and styles come from this server's own /browser/lexgraph/ folder.
        c.put("browser.remote_content_hostname_whitelist", "127.0.0.1,localhost");
        // On connect: lexgraph's node and relationship style, then the PDPA guide
        // (both written into browser/lexgraph/ by `lexgraph stack build`).
        String kit = "http://" + http + "/browser/lexgraph/";
        c.put("browser.post_connect_cmd", "style " + kit + "lexgraph.grass; play " + kit + "pdpa-guide.html");
        c.put("client.allow_telemetry", "false");
        return c;
    }

    /** What `neo4j-admin dbms set-initial-password` does: read when the system database is created. */
    private static void setInitialPassword(Path home, String password) {
        ExecutionContext ctx = new ExecutionContext(home, home.resolve("conf"));
        int code = new CommandLine(new SetInitialPasswordCommand(ctx)).execute(password);
        if (code != 0) {
            fail("setting the initial password failed (code " + code + ")");
        }
    }

    /** A data dir created with another password takes the configured one (settings win). */
    private static void applyPassword(DatabaseManagementService dbms, String password) {
        try {
            dbms.database("system").executeTransactionally(
                    "ALTER USER " + USER + " SET PASSWORD $password CHANGE NOT REQUIRED",
                    Map.of("password", password));
        } catch (QueryExecutionException e) {
            // "Old password and new password cannot be the same": nothing to change.
            if (!String.valueOf(e.getMessage()).contains("cannot be the same")) {
                throw e;
            }
        }
    }

    private static String required(Map<String, String> opts, String name) {
        String value = opts.get(name);
        if (value == null) {
            fail("missing --" + name);
        }
        return value;
    }

    private static void fail(String message) {
        System.err.println("lexgraph-neo4j: " + message);
        System.exit(2);
    }
}
