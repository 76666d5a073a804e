# SUSI Speaker. `make test` and `make demo` each work in one step on a fresh Debian 12 machine.

SWIFT ?= swift
BUILD_FLAGS ?=
RELEASE_BIN = .build/release/susi
# The release binaries carry the Swift runtime and Foundation inside (only the parts they use):
# they run on a box without the Swift toolchain, and `susi run` holds about 5 MiB less memory
# than with the shared libraries (bench/RESULTS.md). Scripts that build release read it from here.
export RELEASE_FLAGS = --static-swift-stdlib

# Debian packages the build, the tests and the demo need.
DEB_PACKAGES = pkg-config portaudio19-dev libmujs-dev \
	libpocketsphinx-dev libsphinxbase-dev pocketsphinx-en-us pocketsphinx-testdata \
	libespeak-ng-dev espeak-ng libspeexdsp-dev nettle-dev libcurl4-openssl-dev curl libmicrohttpd-dev sox mpv flite pocketsphinx \
	wpasupplicant chromium wrk unzip python3-pip python3-venv iso-codes tzdata \
	hostapd dnsmasq-base busybox iproute2 nftables systemd nodejs \
	ffmpeg snapserver snapclient

SUDO = $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps frontend yt-dlp yt-dlp-update wakeword build test lint ruff demo bench reliability install clean format \
	home-assistant test-home-assistant

# yt-dlp for mpv's ytdl hook ("play ..." and YouTube; Debian 12's yt-dlp is too old), with
# yt-dlp-ejs and Deno, the JavaScript runtime YouTube needs now (Debian 12's nodejs 18 is older
# than the Node 20 yt-dlp supports), pinned and sha256-checked from PyPI, in a virtualenv that is
# never committed. `susi` finds it beside itself (`make install`: $(PREFIX)/lib/susi/yt-dlp) or
# in .build/yt-dlp. `make yt-dlp-update` (or `susi update`) moves it to PyPI's newest yt-dlp when YouTube changes.
PREFIX ?= /usr/local
YTDLP_VENV ?= .build/yt-dlp
export YTDLP_VERSION = 2026.10.26
export YTDLP_SHA256 = a05c5b5d8562f7e8a62f5334348b406af4930d56d3a65f8021d14af0e22339ae
export YTDLP_EJS_VERSION = 0.8.0
export YTDLP_EJS_SHA256 = 79300e5fca7f937a1eeede11f0456862c1b41107ce1d726871e0207424f4bdb4
export DENO_VERSION = 2.9.8
export DENO_SHA256_X86_64 = b1d1318e7deda8efd593aefa8b565a827fe71cf83aeff09d3a5ceb047444ca18
export DENO_SHA256_AARCH64 = 3e286918a36f436134336c5c6ef37dfe3a27f16ea22cd6af452ab7daa4ef1da4

# The `wyoming` package (rhasspy/wyoming, the Wyoming protocol's reference implementation) plays
# Home Assistant in the tests of `susi satellite serve`: pinned and sha256-checked from PyPI into
# a virtualenv that is never committed (scripts/wyoming-venv.sh). The speaker itself does not use it.
WYOMING_VENV ?= .build/wyoming
export WYOMING_VERSION = 1.10.2
export WYOMING_SHA256 = 08aec17ccad4d72fc3f919ab741beacf3f23a1df24c8b9a317ebc6e02d2b227c

all: build

# Installs only what is missing; non-interactive and idempotent.
deps:
	@missing=$$(for p in $(DEB_PACKAGES); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing:" $$missing; \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	else echo "deps: all Debian packages present"; fi
	@scripts/wake-frontend.sh
	@WHISPER_BASE=yes scripts/whisper-deps.sh
	@scripts/gazetteer-deps.sh
	@scripts/yt-dlp-venv.sh $(YTDLP_VENV)
	@scripts/wyoming-venv.sh $(WYOMING_VENV)

yt-dlp:
	scripts/yt-dlp-venv.sh $(YTDLP_VENV)

# Refreshes the build tree's yt-dlp, or an installed one: make yt-dlp-update YTDLP_VENV=/usr/local/lib/susi/yt-dlp
yt-dlp-update:
	scripts/yt-dlp-venv.sh $(YTDLP_VENV) --refresh

# The neural wake word's front end (TensorFlow Lite and two models from the pinned wheel
# pyopen-wakeword 1.1.0, sha256-checked; not in git): models/hotword/README.md.
frontend:
	scripts/wake-frontend.sh

# Rebuilds the wake word's training data and trains its classifier head
# (models/hotword/<phrase>.head.json; for "susi" joined with bench/wakeword/susi.base.head.json
# and susi.third.head.json);
# PHRASE="hey computer" for another phrase.
PHRASE ?= susi
wakeword: deps
	nice -n 10 bench/wakeword/train.sh "$(PHRASE)"

# SwiftPM and the Swift driver leave an empty TemporaryDirectory.XXXXXX (holding only
# .keep-directory) in $TMPDIR on every run, five per `swift test` (swiftlang/swift-driver#1720).
# A recipe line starting with $(SCRATCH_TMP) runs with TMPDIR in a directory of its own,
# removed when the line ends, however it ends.
SCRATCH_TMP = tmp=$$(mktemp -d "$${TMPDIR:-/tmp}/susi-make.XXXXXX") && trap 'rm -rf "$$tmp"' EXIT && export TMPDIR="$$tmp" &&

# One product at a time: the static runtime has no XCTest for the test-support target.
build: deps
	$(SCRATCH_TMP) for product in susi susi-js susi-bench; do \
		$(SWIFT) build -c release $(RELEASE_FLAGS) $(BUILD_FLAGS) --product $$product || exit 1; done

test: deps lint ruff
	python3 scripts/test_whisper_convert.py
	python3 scripts/test_gazetteer_convert.py
	python3 bench/wakeword/test_wakeword.py
	$(SCRATCH_TMP) $(SWIFT) build --build-tests $(BUILD_FLAGS) && \
		$(SWIFT) test --skip-build --disable-swift-testing $(BUILD_FLAGS)

demo: build
	scripts/demo.sh $(RELEASE_BIN) demo-out

# Home Assistant Core for the real-Home-Assistant test, pinned and sha256-checked from PyPI into
# .build/homeassistant (about 200 MB; scripts/home-assistant-venv.sh). Not part of `deps` or
# `test`: without it that test is skipped, saying how to run it; the fake-server tests always run.
HA_VENV ?= .build/homeassistant
export HA_VERSION = 2024.3.3
export HA_SHA256 = 6e1ec2c07441d63fdcfb8acd2c4bbb6f68bc97330855784d3623d10c38fe3577
home-assistant:
	scripts/home-assistant-venv.sh $(HA_VENV)

# The Home Assistant tests alone: the fake server's and the real Home Assistant's.
test-home-assistant: deps home-assistant
	$(SCRATCH_TMP) $(SWIFT) build --build-tests $(BUILD_FLAGS) && \
		$(SWIFT) test --skip-build --disable-swift-testing $(BUILD_FLAGS) \
			--filter 'HomeAssistantTests|RealHomeAssistantTests|HomeDirectoryTests'

# Speed and accuracy, measured side by side in one run; see bench/PERFORMANCE.md.
# `make bench QUICK=1` runs the quick subset of the pause-after-the-name bench (64 files).
bench: build
	@echo "== built-in brain (in process)"
	$(RELEASE_BIN) skills bench
	@echo "== voice pipeline (susi run on the dev corpus)"
	python3 bench/pipeline.py --susi $(RELEASE_BIN)
	@echo "== hearing accuracy, side by side with the stock PocketSphinx setup (bench/RESULTS.md)"
	bench/accuracy.sh
	@echo "== open questions, side by side with stock PocketSphinx (bench/RESULTS.md)"
	python3 bench/open-questions.py
	@echo "== voice pipeline on the held-out corpus (other voices, brown noise)"
	python3 bench/pipeline.py --susi $(RELEASE_BIN) --corpus bench/out/heldout --negatives bench/out/heldout-negatives \
		--idle-seconds 10 --json bench/out/pipeline-heldout.json
	@echo "== a pause after the name, and long questions (bench/RESULTS.md)"
	python3 bench/pause-after-name.py --susi $(RELEASE_BIN) $(if $(QUICK),--quick)
	@echo "== a SUSI server that hangs: waits after the first timeout (bench/RESULTS.md)"
	python3 bench/outage.py --susi $(RELEASE_BIN)

# Load, fuzz and kill tests of the setup server (figures printed).
reliability: build
	reliability/run.sh

# The binary, the models, the `susi` service user, sandboxed systemd units (restart on failure),
# the privileged helper units of the hotspot with their polkit rule, and a default config in
# /etc/susi owned by the service user.
install: build
	install -D -m 0755 $(RELEASE_BIN) $(DESTDIR)$(PREFIX)/bin/susi
	install -D -m 0755 $(RELEASE_BIN)-js $(DESTDIR)$(PREFIX)/bin/susi-js
	scripts/yt-dlp-venv.sh $(DESTDIR)$(PREFIX)/lib/susi/yt-dlp
	@# A staged install (DESTDIR) must run from its final place: pip wrote DESTDIR into the scripts' first lines.
	[ -z "$(DESTDIR)" ] || for f in $(DESTDIR)$(PREFIX)/lib/susi/yt-dlp/bin/*; do \
		[ "$$(head -c 2 "$$f")" != "#!" ] || sed -i '1s|^#!$(DESTDIR)|#!|' "$$f"; done
	install -D -m 0644 dist/susi.sysusers $(DESTDIR)/usr/lib/sysusers.d/susi.conf
	[ -n "$(DESTDIR)" ] || systemd-sysusers
	for unit in susi susi-setup susi-hotspot susi-wifi-join; do \
		install -D -m 0644 dist/$$unit.service $(DESTDIR)/etc/systemd/system/$$unit.service; done
	install -D -m 0644 dist/50-susi.rules $(DESTDIR)/etc/polkit-1/rules.d/50-susi.rules
	install -d -m 0700 $(DESTDIR)/etc/susi
	[ -f $(DESTDIR)/etc/susi/config.json ] || XDG_CONFIG_HOME=$(DESTDIR)/etc $(RELEASE_BIN) config show >/dev/null
	[ -n "$(DESTDIR)" ] || chown -R susi:susi /etc/susi
	install -d $(DESTDIR)/usr/local/share/susi && cp -r models $(DESTDIR)/usr/local/share/susi/
	[ -n "$(DESTDIR)" ] || systemctl daemon-reload

# swift-format's rules from .swift-format (no force unwraps, no try!, no implicitly unwrapped
# optionals, ...) and its layout, as errors; `make format` fixes the layout.
LINT_PATHS = Sources Tests Package.swift bench/Sources
lint:
	$(SWIFT) format lint --strict -r $(LINT_PATHS)

# The Python (bench/, scripts/) through ruff, pinned and sha256-checked from PyPI (scripts/ruff.sh;
# settings in ruff.toml). Apart from `lint` because its first run downloads the wheel.
ruff:
	scripts/ruff.sh check bench scripts

format:
	$(SWIFT) format -i -r $(LINT_PATHS)

clean:
	rm -rf .build demo-out
