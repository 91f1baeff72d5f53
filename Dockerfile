# The one lexflow binary, static, on Debian's slim image with the commands that read
# clients' documents (poppler's pdfinfo, pdftotext and pdftoppm; tesseract with its
# Romanian and Italian data): `lexflow api` (which counts an upload's pages),
# `lexflow worker` (which reads it), and `lexflow probe` for health checks. The legal
# corpus is built into the image, so every worker reads the same. docker-compose.yml
# builds it; deploy/compose_test.go checks that it builds the way `make build` does.

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -o /out/lexflow ./cmd/lexflow
RUN LEXFLOW_CORPUS_DB=/out/corpus.db /out/lexflow corpus load && mkdir /out/data

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends poppler-utils tesseract-ocr tesseract-ocr-ron tesseract-ocr-ita \
    && rm -rf /var/lib/apt/lists/* && useradd --uid 65532 --user-group --no-create-home --shell /usr/sbin/nologin nonroot
# The build ID a versioned worker joins its deployment under (the image has no VCS
# revision): docker build --build-arg LEXFLOW_BUILD_ID=$(git rev-parse HEAD) .
ARG LEXFLOW_BUILD_ID=
COPY --from=build /out/lexflow /lexflow
COPY --from=build /out/corpus.db /corpus/corpus.db
COPY --from=build --chown=65532:65532 /out/data /data
ENV LEXFLOW_CORPUS_DB=/corpus/corpus.db LEXFLOW_DATA_DIR=/data LEXFLOW_HTTP_ADDR=0.0.0.0:8080 \
    LEXFLOW_BUILD_ID=${LEXFLOW_BUILD_ID}
USER 65532:65532
EXPOSE 8080
ENTRYPOINT ["/lexflow"]
CMD ["api"]
