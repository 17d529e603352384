# syntax=docker/dockerfile:1
# Build: a static binary (modernc.org/sqlite needs no cgo).
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/web ./cmd/web

# Run: Debian with what the local engine needs — bubblewrap for the sandbox
# and Debian's Python data stack. With FOUNDRY_PROJECT_ENDPOINT set, these
# are unused but harmless.
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      bubblewrap util-linux python3 python3-pandas python3-numpy python3-matplotlib \
      python3-seaborn python3-scipy python3-openpyxl python3-sklearn python3-statsmodels \
      python3-docx python3-pypdf python3-xlrd \
      fonts-noto-cjk fonts-dejavu-core ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin workbench \
 && mkdir -p /data && chown workbench:workbench /data && chmod 0700 /data
COPY --from=build /out/web /usr/local/bin/web
USER workbench
ENV ADDR=:8080 DATA_DIR=/data
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s \
  CMD ["python3", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8080/healthz', timeout=4)"]
ENTRYPOINT ["/usr/local/bin/web"]
