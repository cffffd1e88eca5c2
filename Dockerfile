# The image of compose.yaml: the rolling package with the PostgreSQL extra, run as a user without
# rights. The same image runs the web processes (rolling serve --no-worker) and the workers
# (rolling worker); compose.yaml names each one's command.
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
# only what the package needs to build (the tests, benchmarks and docs stay out: .dockerignore)
COPY pyproject.toml setup.py README.md LICENSE ./
COPY src ./src
# a C compiler for the install alone (setup.py compiles Rolling Freight's payment walk), then removed
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && pip install '.[postgres]' \
    && apt-get purge -y --auto-remove gcc libc6-dev && rm -rf /var/lib/apt/lists/* /src
RUN useradd --system --create-home rolling
USER rolling
WORKDIR /home/rolling
EXPOSE 8000
# compose.yaml gives the command; alone, the image serves on port 8000 with its own SQLite file
CMD ["rolling", "serve", "--host", "0.0.0.0", "--port", "8000"]
