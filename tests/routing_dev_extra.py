"""A held-out routing set: written blind to the router's rules, labelled by meaning and type precedence."""

from __future__ import annotations

DEV_EXTRA: list[tuple[str, str]] = [
    # entity_lookup: what a named thing is, where it is defined, or an id reference
    ("what is PaymentIntentReconciler", "entity_lookup"),
    ("where is `RetryBudget` defined", "entity_lookup"),
    ("ADR 0017", "entity_lookup"),
    ("ticket INC-2291", "entity_lookup"),
    (
        (
            "I'm refactoring the checkout flow and hit an unfamiliar class. What exactly is CartSnapshotV2 "
            "and what does it represent?"
        ),
        "entity_lookup",
    ),
    ("describe the orders_archive table", "entity_lookup"),
    (
        (
            "so there's this thing called the ledger sweeper that keeps coming up in standup and i honestly "
            "have no idea what it is can you tell me what it is and where it lives"
        ),
        "entity_lookup",
    ),
    ("FeatureFlagStore?", "entity_lookup"),
    ("define LeaseManager", "entity_lookup"),
    ("in the billing code, where's InvoiceNumberAllocator declared?", "entity_lookup"),
    ("isn't TokenBucket defined somewhere under utils?", "entity_lookup"),
    ("the `UserProfile` protobuf message, what fields does it have", "entity_lookup"),
    ("what does the values.yaml key `ingress.canary.weight` mean", "entity_lookup"),
    ("what is the `deploy-prod` job in .gitlab-ci.yml", "entity_lookup"),
    ("RFC-118", "entity_lookup"),
    ("runbook RB-07", "entity_lookup"),
    ("what's the OpenAPI schema for `RefundRequest`", "entity_lookup"),
    ("which file defines SCHEMA_VERSION", "entity_lookup"),
    ("show me the definition of `parse_manifest`", "entity_lookup"),
    ("explain what backoff_jitter_ms is", "entity_lookup"),
    ("migration 0093_add_tenant_id", "entity_lookup"),
    ("the notebook churn_eda.ipynb - what is it", "entity_lookup"),
    ("who was Ada Lovelace", "entity_lookup"),
    ("where does class ShardRouter live", "entity_lookup"),
    ("issue #4471", "entity_lookup"),
    ("PR 812, what was that one", "entity_lookup"),
    ("whats WebhookSignatureVerifier", "entity_lookup"),
    ("quick lookup: MAX_INFLIGHT_REQUESTS", "entity_lookup"),
    (
        (
            "Before I edit the config loader I need to know what `EnvOverlay` is. Where is it declared and "
            "what does it hold?"
        ),
        "entity_lookup",
    ),
    ("the k8s CronJob named nightly-compaction, what is it", "entity_lookup"),
    ("tell me about the `tenants` table", "entity_lookup"),
    ("what's inside the AuthContext react context", "entity_lookup"),
    ("locate useInfiniteFeed hook", "entity_lookup"),
    ("the grafana dashboard api-latency-p99, what is it showing", "entity_lookup"),
    ("what is `billing.tax.jurisdiction_code`", "entity_lookup"),
    ("decision record 0031", "entity_lookup"),
    ("where's the `EmbeddingCache` class", "entity_lookup"),
    # relationship: how named things connect, or what is directly connected to one named thing
    ("who calls `charge_card`", "relationship"),
    ("what does ReportBuilder depend on", "relationship"),
    ("which modules import legacy_auth", "relationship"),
    ("what reads from the sessions table", "relationship"),
    ("what writes to audit_log", "relationship"),
    ("callers of flush_metrics?", "relationship"),
    ("is nothing else calling compute_tax_v1?", "relationship"),
    ("does anything still use OldPaymentGateway or can I delete it", "relationship"),
    (
        "I'm about to rename `normalize_email`. Before I do, which call sites reference it?",
        "relationship",
    ),
    ("which Helm charts depend on the common-lib chart", "relationship"),
    ("which consumers subscribe to the `order.created` topic", "relationship"),
    ("which dashboards query the http_requests_total metric", "relationship"),
    ("what does build_index call", "relationship"),
    ("what is blocking ticket PLAT-330", "relationship"),
    ("what links to the onboarding runbook", "relationship"),
    ("what's affected downstream if I change the signature of get_user", "relationship"),
    ("how is RateLimiter connected to RedisClient", "relationship"),
    ("which protobuf messages reference `Money`", "relationship"),
    ("which CI jobs need the build-image job to finish first", "relationship"),
    ("what tests cover parse_duration", "relationship"),
    ("dependents of utils/dates.py", "relationship"),
    ("which paths in openapi.yaml use the Pagination schema", "relationship"),
    ("who listens for UserDeleted events", "relationship"),
    ("does InvoiceService talk to the tax API directly", "relationship"),
    ("what does the notebook train_v3.ipynb import", "relationship"),
    ("which react components consume useAuth", "relationship"),
    ("which terraform modules reference aws_vpc.main", "relationship"),
    ("trace requirement REQ-12 to the code that implements it", "relationship"),
    ("which migrations touch users.email", "relationship"),
    ("in the search code, what invokes rerank()?", "relationship"),
    ("does anything import from internal/legacy anymore", "relationship"),
    (
        (
            "so i changed the Order model and now im wondering um what else reads that model like which "
            "serializers and views pull from it"
        ),
        "relationship",
    ),
    ("callees of handle_webhook", "relationship"),
    ("which SQL views select from payments", "relationship"),
    ("what triggers the deploy-staging workflow", "relationship"),
    ("what feeds into the daily_revenue table", "relationship"),
    ("ConfigLoader usages", "relationship"),
    ("is the Scheduler coupled to WorkerPool in any way", "relationship"),
    ("what does `ingest.py` pull in", "relationship"),
    # multi_hop: chains of two or more relations, or entities reached through another entity
    ("what calls the function that writes to ledger_entries", "multi_hop"),
    ("who owns the modules that depend on the auth library", "multi_hop"),
    ("which tests cover the handlers that hit the redis cache", "multi_hop"),
    (
        "in which city was the composer of the score for the 1998 Best Picture winner born",
        "multi_hop",
    ),
    (
        "who was older: the author of Dune or the director of its 1984 film adaptation",
        "multi_hop",
    ),
    (
        (
            "which came first, the founding of the university where Alan Turing got his PhD or the birth of "
            "the inventor of the telephone"
        ),
        "multi_hop",
    ),
    ("the spouse of the lead actor in Casablanca", "multi_hop"),
    (
        "what river flows through the capital of the country where the Eiffel Tower's designer was born",
        "multi_hop",
    ),
    ("what's the tallest peak in the country whose capital is Kathmandu", "multi_hop"),
    (
        "birthplace of the architect who designed the building where the UN General Assembly meets",
        "multi_hop",
    ),
    ("what does the class that implements Exporter import", "multi_hop"),
    ("find endpoints whose handlers call functions that query orders", "multi_hop"),
    ("what depends on the job that builds the docker image", "multi_hop"),
    (
        "which dashboards chart metrics emitted by the worker that consumes the refunds queue",
        "multi_hop",
    ),
    ("who reviewed the PRs that touched the migration which added tenant_id", "multi_hop"),
    (
        "what protos are imported by the messages used in CheckoutService.PlaceOrder",
        "multi_hop",
    ),
    (
        "which helm values are read by the templates that render the ingress for the api chart",
        "multi_hop",
    ),
    (
        "ok so i need to figure out like what are the callers of the callers of validate_iban two levels up",
        "multi_hop",
    ),
    ("the team that owns the module imported by billing/cli.py", "multi_hop"),
    (
        "Tracing a flaky test. Which fixtures are used by the tests that exercise SessionStore?",
        "multi_hop",
    ),
    ("what tables are written by the tasks that the nightly DAG triggers", "multi_hop"),
    ("which ADRs are referenced by the runbook linked from the on-call page", "multi_hop"),
    ("config keys read by classes that subclass BaseWorker", "multi_hop"),
    (
        "where was the author of the novel that Blade Runner was adapted from born",
        "multi_hop",
    ),
    (
        (
            "who was born first, the co-founder of Microsoft who became its CEO or the co-founder of Apple "
            "who introduced the iPhone"
        ),
        "multi_hop",
    ),
    ("what instrument did the father of the composer of The Magic Flute play", "multi_hop"),
    ("name the university attended by the scientist who discovered penicillin", "multi_hop"),
    ("capital of the country where the inventor of dynamite was born", "multi_hop"),
    ("in the ingestion pipeline, what depends on the things normalize_rows calls", "multi_hop"),
    ("is there nothing downstream of the consumers of invoice.paid?", "multi_hop"),
    ("which SQL columns are read by the views backing the revenue dashboard", "multi_hop"),
    (
        "which endpoints in the OpenAPI spec return schemas that embed Address",
        "multi_hop",
    ),
    (
        "which is older, the city where the Beatles formed or the city where the Rolling Stones formed",
        "multi_hop",
    ),
    (
        "of the director of Jaws and the director of Alien, which one was born earlier",
        "multi_hop",
    ),
    (
        "home stadium of the club the 2022 Ballon d'Or winner played for that season",
        "multi_hop",
    ),
    ("the alma mater of the first wife of the physicist who proposed general relativity", "multi_hop"),
    # similarity: things like a given example, pasted snippets or stack traces
    ("similar to retry_with_backoff", "similarity"),
    ("code like this: `for i in range(len(xs)): total += xs[i]`", "similarity"),
    (
        (
            'Traceback (most recent call last):\n  File "app/db.py", line 88, in get_conn\n    conn = '
            "pool.getconn()\npsycopg2.OperationalError: could not connect to server"
        ),
        "similarity",
    ),
    ("anything resembling our CircuitBreaker in other modules", "similarity"),
    ("examples of pytest fixtures that do teardown with yield", "similarity"),
    ("find functions that look like parse_date_loose", "similarity"),
    ("more like this one: def slugify(s): return re.sub(r'\\W+', '-', s).lower()", "similarity"),
    ("Helm charts that resemble the api-gateway chart", "similarity"),
    (
        "SQL comparable to this: SELECT user_id, count(*) FROM events GROUP BY 1 HAVING count(*) > 100",
        "similarity",
    ),
    (
        (
            "I wrote a new middleware and want to check for precedent. Are there other middlewares analogous "
            "to RequestIdMiddleware?"
        ),
        "similarity",
    ),
    ("show me dashboards like the checkout latency one", "similarity"),
    ("near-duplicates of send_email_async", "similarity"),
    (
        "code that does roughly what this does: `with open(p) as f: data = json.load(f)`",
        "similarity",
    ),
    ("anything like useDebounce already in here?", "similarity"),
    ("look-alikes of the cleanup_stale_locks cron", "similarity"),
    ("is there a protobuf message similar to Money already", "similarity"),
    ("find me other CI workflows like .github/workflows/release.yml", "similarity"),
    (
        (
            "hey so ive got this error and it looks like this panic: runtime error: invalid memory address "
            "or nil pointer dereference goroutine 1 [running]: main.main() /app/main.go:23 can you find "
            "anything that matches it"
        ),
        "similarity",
    ),
    ("notebooks similar to eda_sessions.ipynb", "similarity"),
    ("other tests written like test_refund_partial", "similarity"),
    (
        'terraform resources resembling this block: resource "aws_s3_bucket" "logs" { bucket = "acme-logs" }',
        "similarity",
    ),
    ("examples of asyncio.TaskGroup usage", "similarity"),
    ("analogues of merge_intervals", "similarity"),
    ("what else looks like this regex: ^[a-z0-9-]{3,63}$", "similarity"),
    ("things akin to BatchWriter", "similarity"),
    (
        (
            "java.lang.NullPointerException\n\tat "
            "com.acme.billing.InvoiceService.total(InvoiceService.java:57)\n\tat "
            "com.acme.billing.InvoiceController.get(InvoiceController.java:31)"
        ),
        "similarity",
    ),
    ("find code matching this snippet\nconst [state, setState] = useState(() => load())", "similarity"),
    ("migrations like 0041_backfill_slugs", "similarity"),
    ("anything comparable to the rate_limit decorator", "similarity"),
    ("other OpenAPI paths shaped like /v1/orders/{id}/refunds", "similarity"),
    ("are there copies of hash_password elsewhere in the tree", "similarity"),
    ("bug reports similar to BUG-881", "similarity"),
    ("other grafana panels like the p95 latency panel", "similarity"),
    ("lookalike code", "similarity"),
    (
        (
            '  File "/srv/worker/tasks.py", line 214, in run\n    raise '
            "RetryExhausted(job.id)\nworker.errors.RetryExhausted: 9f3c"
        ),
        "similarity",
    ),
    ("same kind of thing as `OrderSerializer`?", "similarity"),
    # pattern: how things are usually done here, conventions, typical structure
    ("how do we usually paginate list endpoints", "pattern"),
    ("convention for naming migration files?", "pattern"),
    ("whats the house style for error messages in the cli", "pattern"),
    ("idiomatic way here to add a feature flag", "pattern"),
    (
        (
            "I'm adding a new endpoint and want it to match the rest. How are handlers normally structured "
            "in this codebase?"
        ),
        "pattern",
    ),
    ("how do we typically write alembic migrations that backfill data", "pattern"),
    ("the usual way we mock the http client in tests", "pattern"),
    ("what approaches does this repo take to retries", "pattern"),
    ("logging conventions", "pattern"),
    ("standard layout for a Helm chart in this repo", "pattern"),
    ("how are protobuf packages normally named here", "pattern"),
    ("common practice for env var config in this codebase", "pattern"),
    ("what's our go-to approach for background jobs", "pattern"),
    ("in the frontend, how do components usually fetch data?", "pattern"),
    ("how do people here normally structure a custom react hook", "pattern"),
    ("typical shape of a job definition in our CI pipelines", "pattern"),
    ("is it not the norm here to use dataclasses for DTOs?", "pattern"),
    (
        (
            "so when we write a new cli subcommand whats like the normal way people do it in this project "
            "with click or argparse or whatever"
        ),
        "pattern",
    ),
    ("recurring idioms in the terraform modules", "pattern"),
    ("how do we tend to name SQL indexes", "pattern"),
    ("the established way to handle db transactions in repository classes", "pattern"),
    ("best practices we follow when building dashboards", "pattern"),
    ("what does a typical ADR look like here", "pattern"),
    ("how are tests usually organized in this repo", "pattern"),
    ("preferred way to raise errors from the domain layer", "pattern"),
    ("customary approach to caching here", "pattern"),
    ("how should I structure a new pipeline stage so it matches the existing ones", "pattern"),
    ("how are experiment notebooks usually laid out in the ml folder", "pattern"),
    ("What's the idiom for dependency injection in this codebase?", "pattern"),
    ("how do we normally version the OpenAPI spec", "pattern"),
    ("error handling style", "pattern"),
    ("standard way we write liveness probes in our charts", "pattern"),
    ("how do modules here typically expose their public API", "pattern"),
    ("usual fixture setup for db tests", "pattern"),
    ("naming conventions for kafka topics", "pattern"),
    ("what's the customary way to structure a SQL migration with a rollback here", "pattern"),
    # cross_project: explicitly spans other projects, teams, services, repos or the org
    ("how do other teams handle secrets rotation", "cross_project"),
    ("compare Trident and Sourcegraph on how they index code", "cross_project"),
    ("across all our repos, who uses the deprecated logging lib", "cross_project"),
    ("which services across the org call the payments API", "cross_project"),
    ("does the mobile team's repo use the same auth client as us", "cross_project"),
    ("org-wide: which repos still pin python 3.8", "cross_project"),
    ("compare how billing-service and ledger-service do idempotency", "cross_project"),
    ("is any other project using our shared-protos package", "cross_project"),
    ("in the platform org, which Helm charts override resource limits", "cross_project"),
    ("search all repositories for X-Request-Id handling", "cross_project"),
    ("how does the data team's airflow setup differ from ours", "cross_project"),
    (
        (
            "so im wondering whether any of the other microservices in the company also run into this kafka "
            "consumer lag thing and how they dealt with it"
        ),
        "cross_project",
    ),
    ("company-wide CI templates", "cross_project"),
    ("which teams own dashboards for checkout", "cross_project"),
    ("compare frontend-web and frontend-admin repos' routing setup", "cross_project"),
    ("look outside this repo for an implementation of SAML SSO", "cross_project"),
    ("in other codebases at the company, how is feature flagging done?", "cross_project"),
    ("which projects depend on libcommon v2", "cross_project"),
    ("check the infra repo for the terraform that provisions our RDS", "cross_project"),
    ("p99 latency SLOs across every service we run", "cross_project"),
    (
        (
            "I need to know whether my change to the User proto will break anybody else. Which other "
            "services consume user.proto?"
        ),
        "cross_project",
    ),
    ("how do sibling repos structure their OpenAPI specs", "cross_project"),
    ("hardcoded api tokens in any repo in the org", "cross_project"),
    ("how does team Atlas deploy versus team Orion", "cross_project"),
    ("which other repos vendor a copy of our retry module", "cross_project"),
    ("cross-team: who else has a notion of 'tenant'", "cross_project"),
    ("what do other projects name their main config file", "cross_project"),
    ("the analytics repo, does it have a dbt model for churn", "cross_project"),
    ("differences between project alpha and project beta migrations", "cross_project"),
    ("is anyone outside our team calling /internal/v1/reindex", "cross_project"),
    ("log format used by all services", "cross_project"),
    ("which of the company's repos has the newest design system version", "cross_project"),
    ("compare the postgres schemas of orders-svc and inventory-svc", "cross_project"),
    ("doesn't some other team already have a notebook for cohort analysis?", "cross_project"),
    ("grafana dashboards owned by other squads for the payments domain", "cross_project"),
    ("Django vs Rails: how do our two storefront codebases handle sessions", "cross_project"),
    # local_only: what the project's own instruction/docs files say, or explicit local scope
    ("local docs: how to run the tests", "local_only"),
    ("README: install steps", "local_only"),
    ("what does CLAUDE.md say about commits", "local_only"),
    ("in our README, is there a section on env vars", "local_only"),
    ("does AGENTS.md allow running migrations", "local_only"),
    ("contributing guide: PR title format", "local_only"),
    ("our docs on the release process", "local_only"),
    ("according to CONTRIBUTING.md what's the branch naming rule", "local_only"),
    ("check the project's README for the supported python versions", "local_only"),
    (
        "I was told to follow the repo's instruction file. What does AGENTS.md say about writing tests?",
        "local_only",
    ),
    ("is there nothing in CLAUDE.md about formatting?", "local_only"),
    ("readme quickstart", "local_only"),
    ("local docs only: architecture overview", "local_only"),
    ("what do our docs say about the ingest pipeline's retry behavior", "local_only"),
    ("per the README, which ports does the dev server use", "local_only"),
    (
        (
            "um can you look in our docs or the readme or whatever and tell me what it says about setting up "
            "the local database"
        ),
        "local_only",
    ),
    ("CLAUDE.md rules", "local_only"),
    ("agents.md", "local_only"),
    ("what license does the README say we use", "local_only"),
    ("in the local documentation, how is the config file described", "local_only"),
    ("does the contributing guide mention a code of conduct", "local_only"),
    ("project docs: helm install instructions", "local_only"),
    ("search only our docs for 'rate limit'", "local_only"),
    ("our README's troubleshooting section", "local_only"),
    ("what the in-repo docs say about generating the OpenAPI spec", "local_only"),
    ("CLAUDE.md: which commands are forbidden", "local_only"),
    ("in the README, how do I regenerate protobufs", "local_only"),
    ("what does our CONTRIBUTING say about changelog entries", "local_only"),
    ("local docs: comparison with similar tools", "local_only"),
    (
        "does AGENTS.md say anything about updating callers when the public API changes",
        "local_only",
    ),
    ("README: which other repos do we integrate with", "local_only"),
    ("in our docs, the summary of the storage layer", "local_only"),
    ("what are the first steps in our onboarding doc", "local_only"),
    ("what does the readme say about the notebooks folder", "local_only"),
    ("our docs: how is the CI pipeline described", "local_only"),
    ("does the README not mention windows support at all?", "local_only"),
    # overview: a summary or landscape of a broad area
    ("give me a high-level tour of the payments module", "overview"),
    ("summarize the auth subsystem", "overview"),
    ("what are the major components of the ingestion pipeline", "overview"),
    ("architecture of the search backend", "overview"),
    ("overview of our CI setup", "overview"),
    ("bird's-eye view of frontend state management", "overview"),
    ("explain the overall structure of the terraform directory", "overview"),
    (
        (
            "I just joined and need orientation. Can you walk me through how the ML training code is "
            "organized at a high level?"
        ),
        "overview",
    ),
    ("big picture: data warehouse", "overview"),
    ("what's the landscape of caching in this app", "overview"),
    ("summarize the helm charts folder", "overview"),
    ("lay of the land for the mobile app", "overview"),
    ("recap the database schema at a high level", "overview"),
    ("give me the gist of the notifications subsystem", "overview"),
    (
        (
            "so what i need is kind of a broad overview of everything related to billing like all the moving "
            "parts and how they fit together at a high level"
        ),
        "overview",
    ),
    ("main building blocks of the CLI", "overview"),
    (
        "high-level description of the observability stack: dashboards, alerts, tracing",
        "overview",
    ),
    ("summary of the protobuf API surface", "overview"),
    ("outline the deployment pipeline end to end", "overview"),
    ("what's in the infra/ folder, broadly", "overview"),
    ("in the reporting module, what are the main parts?", "overview"),
    ("rundown of the migrations history", "overview"),
    ("30,000-foot view of the worker fleet", "overview"),
    ("explain the architecture", "overview"),
    ("overview", "overview"),
    ("onboarding walkthrough of the analytics code", "overview"),
    ("the overall design of the plugin system, in brief", "overview"),
    ("map out the API layer for me", "overview"),
    ("a summary of everything under src/ingest", "overview"),
    ("tl;dr of the auth flow", "overview"),
    ("high level what does this repo contain", "overview"),
    ("broad strokes of the queueing architecture", "overview"),
    ("explain at a high level how the OpenAPI spec is organized", "overview"),
    ("key areas of the react app", "overview"),
    ("the major subsystems and how they fit together", "overview"),
    ("survey of what the admin dashboard offers", "overview"),
    # general: plain topics, bare noun phrases, how-to tasks, bug symptoms, free questions
    ("token bucket rate limit per tenant", "general"),
    ("jwt refresh token rotation", "general"),
    ("connection pool exhaustion", "general"),
    ("dependency injection", "general"),
    ("friend relationships schema", "general"),
    ("how to parse ISO 8601 timestamps in go", "general"),
    ("convert a pandas dataframe to parquet", "general"),
    ("500 error when uploading large files", "general"),
    ("tests hang on CI after upgrading pytest", "general"),
    ("why is the docker build so slow", "general"),
    ("pod stuck in CrashLoopBackOff", "general"),
    ("postgres deadlock detected", "general"),
    ("oauth pkce", "general"),
    ("timezone bugs in scheduling", "general"),
    (
        (
            "I'm debugging an intermittent failure. Why would a websocket connection drop after exactly 60 "
            "seconds behind a load balancer?"
        ),
        "general",
    ),
    (
        "so the app keeps logging me out every few minutes on safari but not chrome and i cant figure out why",
        "general",
    ),
    ("helm upgrade rollback", "general"),
    ("write a sql query for the top 10 customers by revenue", "general"),
    ("grafana alert thresholds", "general"),
    ("dark mode toggle", "general"),
    ("idempotency keys", "general"),
    ("memory keeps growing in the image resizer", "general"),
    ("gradient accumulation with mixed precision", "general"),
    ("retry storm", "general"),
    ("how do I undo a migration in alembic", "general"),
    ("is it possible to stream responses from fastapi", "general"),
    ("set up a github actions matrix for several python versions", "general"),
    ("s3 presigned url expiry", "general"),
    ("cache invalidation", "general"),
    ("nothing loads after login", "general"),
    ("Why isn't the cron firing on weekends?", "general"),
    ("protobuf oneof vs optional", "general"),
    ("react useEffect runs twice", "general"),
    ("terraform state lock", "general"),
    ("load testing the checkout flow", "general"),
    ("CORS", "general"),
    ("schema design for multi-tenant saas", "general"),
    ("openapi nullable fields", "general"),
    ("should we shard by tenant or by region", "general"),
    ("jupyter kernel dies on a large csv", "general"),
    ("graceful shutdown", "general"),
    ("call graph visualization tools", "general"),
    ("database connection pool sizing", "general"),
]
