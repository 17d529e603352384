"""Generate the data files of the truth corpus (truth_test.go) deterministically.

Run with Debian's python3 from this directory:

    /usr/bin/python3 gen.py

The files imitate the public tables analysts ask about (passengers, weather, salaries,
house prices, happiness scores, vaccinations, genomics, stocks, ...), but every value comes
from random.Random with a fixed seed, so they are the same on every run and free of anyone's
rights. Each stays well under 100 KB. The expected answers of the corpus are never stored
here: the test computes them from these files with plain pandas and scipy.
"""
import csv
import datetime as dt
import math
import random

R = random.Random(20261201)


def write(name, header, rows, delimiter=",", pre=()):
    with open(name, "w", newline="", encoding="utf-8") as f:
        for line in pre:
            f.write(line + "\n")
        w = csv.writer(f, delimiter=delimiter)
        w.writerow(header)
        w.writerows(rows)


def maybe(v, p=0.05):
    """v, or a missing value with probability p."""
    return "" if R.random() < p else v


def passengers():
    """Titanic-style: class, sex, age, family aboard, fare, port; survival depends on them."""
    rows = []
    for i in range(1, 601):
        pclass = R.choices([1, 2, 3], [0.24, 0.21, 0.55])[0]
        sex = R.choice(["male", "female"])
        age = round(max(0.5, R.gauss(30, 14)), 0)
        sibsp = R.choices([0, 1, 2, 3, 4], [0.68, 0.23, 0.04, 0.03, 0.02])[0]
        parch = R.choices([0, 1, 2, 3], [0.76, 0.13, 0.09, 0.02])[0]
        fare = round({1: 84, 2: 21, 3: 13}[pclass] * R.lognormvariate(0, 0.45), 2)
        odds = (1.2 if sex == "female" else -1.3) + {1: 0.9, 2: 0.2, 3: -0.8}[pclass] - 0.01 * (age - 30)
        survived = int(R.random() < 1 / (1 + math.exp(-odds)))
        port = R.choices(["S", "C", "Q"], [0.72, 0.19, 0.09])[0]
        name = f"Passenger{i}, {'Mr.' if sex == 'male' else R.choice(['Mrs.', 'Miss.'])} {R.choice(['John', 'Mary', 'Anna', 'James', 'Ellen', 'Karl'])}"
        rows.append((i, survived, pclass, name, sex, maybe(age, 0.15), sibsp, parch, fare, maybe(port, 0.01)))
    write("passengers.csv", ["PassengerId", "Survived", "Pclass", "Name", "Sex", "Age", "SibSp", "Parch", "Fare", "Embarked"], rows)


def weather():
    """Daily weather of one station for two years, with wind direction as compass letters."""
    rows = []
    start = dt.date(2021, 1, 1)
    for d in range(730):
        day = start + dt.timedelta(days=d)
        season = math.sin((day.timetuple().tm_yday - 100) / 365 * 2 * math.pi)
        temp = round(11 + 9 * season + R.gauss(0, 3), 1)
        hum = round(min(100, max(20, 70 - 10 * season + R.gauss(0, 8))), 0)
        wind = round(abs(R.gauss(12, 6)), 1)
        if d in (40, 300, 555):
            wind = round(wind + 45, 1)  # storms: clear outliers
        rain = round(max(0.0, R.gauss(1.5, 3)), 1)
        rows.append((day.isoformat(), temp, hum, wind, R.choice(["N", "NE", "E", "SE", "S", "SW", "W", "NW"]), rain))
    write("weather.csv", ["date", "temperature", "humidity", "wind_speed", "wind_dir", "precipitation"], rows)


def salaries():
    """Employees with department, level, experience and salary."""
    rows = []
    depts = {"Engineering": 88000, "Sales": 61000, "Marketing": 64000, "Finance": 72000, "Support": 48000}
    for i in range(1, 401):
        dept = R.choice(list(depts))
        years = R.randint(0, 30)
        level = R.choice(["Junior", "Mid", "Senior"]) if years > 3 else "Junior"
        salary = int(depts[dept] + 1800 * years + {"Junior": 0, "Mid": 6000, "Senior": 15000}[level] + R.gauss(0, 7000))
        rows.append((1000 + i, dept, level, years, R.choice(["F", "M"]), R.randint(22, 64), salary, R.choice(["Remote", "Office", "Hybrid"])))
    write("salaries.csv", ["employee_id", "department", "level", "years_experience", "gender", "age", "salary", "work_mode"], rows)


def houses():
    """House sales: area, rooms, age and neighbourhood drive the price (a linear model fits)."""
    rows = []
    hoods = {"Northside": 1.15, "Riverside": 1.3, "Old Town": 1.0, "Eastgate": 0.85}
    for i in range(1, 501):
        area = R.randint(45, 260)
        bed = max(1, min(6, round(area / 40 + R.gauss(0, 0.7))))
        bath = max(1, min(4, round(bed / 2 + R.gauss(0, 0.5))))
        built = R.randint(1920, 2022)
        hood = R.choice(list(hoods))
        price = int((52000 + 2350 * area + 9000 * bath - 300 * (2023 - built)) * hoods[hood] + R.gauss(0, 25000))
        rows.append((i, hood, area, bed, bath, built, price))
    write("houses.csv", ["house_id", "neighborhood", "area_sqm", "bedrooms", "bathrooms", "year_built", "price"], rows)


def happiness():
    """Happiness scores of 60 countries over three years."""
    regions = ["Western Europe", "Eastern Europe", "Latin America", "Asia", "Africa"]
    countries = [(f"Country{c:02d}", regions[c % 5]) for c in range(1, 61)]
    rows = []
    for country, region in countries:
        base = {"Western Europe": 7.0, "Eastern Europe": 5.8, "Latin America": 6.1, "Asia": 5.4, "Africa": 4.5}[region] + R.gauss(0, 0.5)
        gdp = base / 5 + R.gauss(0, 0.15)
        for year in (2019, 2020, 2021):
            score = round(base + R.gauss(0, 0.15), 3)
            rows.append((country, region, year, score, round(gdp + R.gauss(0, 0.02), 3), round(0.6 + base / 20 + R.gauss(0, 0.05), 3),
                         round(55 + base * 3 + R.gauss(0, 2), 1), round(min(1, max(0, 0.4 + base / 20 + R.gauss(0, 0.08))), 3)))
    write("happiness.csv", ["Country", "Region", "Year", "Score", "GDP per capita", "Social support", "Healthy life expectancy", "Freedom"], rows)


def vaccinations():
    """Daily vaccinations of six countries over 120 days."""
    rows = []
    start = dt.date(2021, 3, 1)
    for country, pop in (("Aland", 5e6), ("Borduria", 12e6), ("Carpania", 3e6), ("Dalmeria", 8e6), ("Elbonia", 20e6), ("Freedonia", 1e6)):
        total = 0
        for d in range(120):
            daily = int(pop * 0.004 * (1 + d / 60) * R.uniform(0.6, 1.4))
            total += daily
            rows.append((country, (start + dt.timedelta(days=d)).isoformat(), daily, total, round(100 * total / pop / 2, 2), R.choice(["Pfizer", "Moderna", "AstraZeneca"])))
    write("vaccinations.csv", ["country", "date", "daily_vaccinations", "total_vaccinations", "people_fully_vaccinated_per_hundred", "vaccine"], rows)


def genes():
    """Expression of 300 genes in two conditions; some differ."""
    rows = []
    for i in range(1, 301):
        a = R.gauss(8, 2)
        b = a + (R.gauss(2.5, 0.5) if i % 10 == 0 else R.gauss(0, 0.4))
        start = R.randint(10_000, 200_000_000)
        rows.append((f"GENE{i:04d}", f"chr{R.randint(1, 22)}", start, start + R.randint(800, 90_000), round(a, 3), round(b, 3), R.choice(["+", "-"])))
    write("genes.csv", ["gene_id", "chromosome", "start", "end", "expr_control", "expr_treated", "strand"], rows)


def stocks():
    """Daily closing prices of three tickers side by side (wide), two years."""
    rows = []
    price = {"AAPL": 120.0, "MSFT": 210.0, "GOOG": 1500.0}
    drift = {"AAPL": 0.0008, "MSFT": 0.0006, "GOOG": 0.0004}
    day = dt.date(2020, 1, 2)
    while day < dt.date(2022, 1, 1):
        if day.weekday() < 5:
            for t in price:
                price[t] *= 1 + drift[t] + R.gauss(0, 0.015)
            rows.append((day.isoformat(), round(price["AAPL"], 2), round(price["MSFT"], 2), round(price["GOOG"], 2), R.randint(50, 150) * 1_000_000))
        day += dt.timedelta(days=1)
    write("stocks.csv", ["Date", "AAPL", "MSFT", "GOOG", "Volume"], rows)


def targets():
    """Monthly sales per region beside a separate file of targets."""
    rows = []
    regions = ["North", "South", "East", "West"]
    for m in range(1, 13):
        for r in regions:
            rows.append((f"2023-{m:02d}", r, int(R.uniform(80_000, 140_000))))
    write("regional_sales.csv", ["month", "region", "sales"], rows)
    write("region_targets.csv", ["region", "annual_target"], [(r, int(R.uniform(1.1e6, 1.45e6))) for r in regions])


def students():
    """Exam scores with gender, lunch type, test preparation and study time."""
    rows = []
    for i in range(1, 351):
        prep = R.random() < 0.35
        hours = round(max(0, R.gauss(6 + 3 * prep, 2.5)), 1)
        base = 55 + 2.2 * hours + R.gauss(0, 9)
        math_ = int(min(100, max(0, base + R.gauss(0, 5))))
        reading = int(min(100, max(0, base + 4 + R.gauss(0, 6))))
        writing = int(min(100, max(0, reading + R.gauss(-1, 4))))
        rows.append((i, R.choice(["female", "male"]), R.choice(["standard", "free/reduced"]), "completed" if prep else "none",
                     hours, math_, reading, writing))
    write("students.csv", ["student_id", "gender", "lunch", "test_preparation", "study_hours", "math_score", "reading_score", "writing_score"], rows)


def cars():
    """Cars: cylinders as an integer code, mpg falling with weight."""
    rows = []
    for i in range(1, 301):
        cyl = R.choices([4, 6, 8], [0.5, 0.25, 0.25])[0]
        weight = int(1800 + 350 * cyl + R.gauss(0, 250))
        hp = int(40 + 14 * cyl + R.gauss(0, 12))
        mpg = round(max(9, 52 - weight / 120 + R.gauss(0, 2.5)), 1)
        rows.append((f"car {i}", mpg, cyl, hp, weight, R.randint(70, 82), R.choice(["usa", "europe", "japan"])))
    write("cars.csv", ["model", "mpg", "cylinders", "horsepower", "weight", "model_year", "origin"], rows)


def insurance():
    """Medical charges by age, bmi, smoker and region."""
    rows = []
    for _ in range(500):
        age = R.randint(18, 64)
        bmi = round(R.gauss(30, 6), 2)
        smoker = R.random() < 0.2
        charges = round(2500 + 260 * age + 300 * max(0, bmi - 25) + (23000 if smoker else 0) + R.gauss(0, 4000), 2)
        rows.append((age, R.choice(["female", "male"]), bmi, R.choice([0, 0, 1, 2, 3]), "yes" if smoker else "no",
                     R.choice(["northeast", "northwest", "southeast", "southwest"]), charges))
    write("insurance.csv", ["age", "sex", "bmi", "children", "smoker", "region", "charges"], rows)


def diabetes():
    """Patients with glucose, bmi, age and a 0/1 outcome (a classifier can learn it)."""
    rows = []
    for _ in range(400):
        glucose = int(R.gauss(120, 30))
        bmi = round(R.gauss(32, 7), 1)
        age = R.randint(21, 80)
        z = 0.045 * (glucose - 120) + 0.08 * (bmi - 32) + 0.03 * (age - 40) - 0.6
        rows.append((R.randint(0, 10), glucose, int(R.gauss(70, 12)), bmi, age, int(R.random() < 1 / (1 + math.exp(-z)))))
    write("diabetes.csv", ["Pregnancies", "Glucose", "BloodPressure", "BMI", "Age", "Outcome"], rows)


def flowers():
    """Iris-like measurements of three species (clusters that k-means finds)."""
    rows = []
    for species, (sl, sw, pl, pw) in (("setosa", (5.0, 3.4, 1.5, 0.25)), ("versicolor", (5.9, 2.8, 4.3, 1.3)), ("virginica", (6.6, 3.0, 5.6, 2.0))):
        for _ in range(50):
            rows.append((round(R.gauss(sl, 0.35), 1), round(R.gauss(sw, 0.3), 1), round(R.gauss(pl, 0.4), 1), round(abs(R.gauss(pw, 0.15)), 1), species))
    write("flowers.csv", ["sepal_length", "sepal_width", "petal_length", "petal_width", "species"], rows)


def campaigns():
    """Marketing campaigns: spend, clicks and conversions per channel."""
    rows = []
    for i in range(1, 201):
        ch = R.choice(["Search", "Social", "Email", "Display"])
        spend = round(R.uniform(200, 5000), 2)
        clicks = int(spend * {"Search": 0.9, "Social": 1.3, "Email": 0.6, "Display": 0.4}[ch] * R.uniform(0.7, 1.3))
        conv = int(clicks * {"Search": 0.05, "Social": 0.02, "Email": 0.08, "Display": 0.01}[ch] * R.uniform(0.5, 1.5))
        rows.append((f"C{i:03d}", ch, (dt.date(2024, 1, 1) + dt.timedelta(days=R.randint(0, 364))).isoformat(), spend, clicks, conv))
    write("campaigns.csv", ["campaign_id", "channel", "start_date", "spend", "clicks", "conversions"], rows)


def flights():
    """Flights with delays by carrier and airport."""
    rows = []
    for i in range(1, 701):
        carrier = R.choice(["AA", "DL", "UA", "WN", "B6"])
        dep = int(R.expovariate(1 / 14)) - 5 + (10 if carrier == "B6" else 0)
        rows.append((i, carrier, R.choice(["JFK", "LAX", "ORD", "ATL"]), R.choice(["SFO", "SEA", "MIA", "BOS"]),
                     (dt.date(2023, 1, 1) + dt.timedelta(days=R.randint(0, 364))).isoformat(), dep, dep + int(R.gauss(0, 8)), R.randint(300, 2800)))
    write("flights.csv", ["flight_id", "carrier", "origin", "dest", "date", "dep_delay", "arr_delay", "distance"], rows)


def releases():
    """Software releases with their release and end-of-life dates."""
    rows = []
    day = dt.date(2012, 3, 1)
    for major in range(1, 21):
        created = day - dt.timedelta(days=R.randint(60, 200))
        eol = day + dt.timedelta(days=R.randint(300, 1400))
        rows.append((f"{major}.0", created.isoformat(), day.isoformat(), eol.isoformat(), "yes" if R.random() < 0.3 else "no"))
        day += dt.timedelta(days=R.randint(120, 260))
    write("releases.csv", ["version", "created", "release_date", "end_of_life", "lts"], rows)


def degrees():
    """Degrees awarded per field of study and year, wide: one column per field."""
    fields = ["Agriculture", "Architecture", "Art and Performance", "Biology", "Business", "Computer Science", "Education", "Engineering"]
    level = {f: R.uniform(20, 60) for f in fields}
    growth = {f: R.uniform(-0.01, 0.03) for f in fields}
    rows = []
    for year in range(1970, 2012):
        rows.append([year] + [round(level[f] * (1 + growth[f]) ** (year - 1970) + R.gauss(0, 0.8), 1) for f in fields])
    write("degrees.csv", ["Year"] + fields, rows)


def hashed_header():
    """A sensor log whose header line starts with '#', as many instruments write it."""
    rows = []
    start = dt.datetime(2024, 5, 1)
    for i in range(240):
        rows.append(((start + dt.timedelta(minutes=15 * i)).isoformat(timespec="minutes"), round(20 + 3 * math.sin(i / 16) + R.gauss(0, 0.4), 2),
                     round(45 + R.gauss(0, 5), 1), R.choice(["A", "B"])))
    with open("sensors.csv", "w", newline="", encoding="utf-8") as f:
        f.write("#timestamp,temp_c,humidity_pct,sensor\n")
        csv.writer(f).writerows(rows)


def european():
    """A European export: a title line, ';', decimal commas and thousands dots."""
    def de(x, d=2):
        s = f"{x:,.{d}f}"
        return s.replace(",", "_").replace(".", ",").replace("_", ".")
    rows = []
    for i in range(1, 151):
        day = dt.date(2024, 1, 1) + dt.timedelta(days=i)
        rows.append((day.strftime("%d.%m.%Y"), R.choice(["Berlin", "Hamburg", "München", "Köln"]), R.choice(["Elektro", "Möbel", "Textil"]),
                     de(R.uniform(800, 25000)), R.randint(1, 40)))
    write("umsatz.csv", ["Datum", "Filiale", "Warengruppe", "Umsatz", "Menge"], rows, delimiter=";", pre=("Umsatzbericht 2024 - Export vom 02.01.2025",))


def wines():
    """Wine quality: an integer-coded rating (3..8) and chemistry."""
    rows = []
    for _ in range(450):
        alcohol = round(R.gauss(10.5, 1.1), 1)
        acidity = round(R.gauss(0.5, 0.17), 2)
        quality = max(3, min(8, round(5.6 + 0.45 * (alcohol - 10.5) - 1.5 * (acidity - 0.5) + R.gauss(0, 0.6))))
        rows.append((round(R.gauss(8.3, 1.7), 1), acidity, round(R.gauss(2.5, 1.2), 1), round(R.gauss(0.996, 0.002), 4), round(R.gauss(3.3, 0.15), 2), alcohol, quality,
                     R.choice(["red", "white"])))
    write("wines.csv", ["fixed_acidity", "volatile_acidity", "residual_sugar", "density", "pH", "alcohol", "quality", "color"], rows)


def energy():
    """Hourly electricity consumption for six weeks, with duplicates and gaps to clean."""
    rows = []
    start = dt.datetime(2024, 1, 1)
    for h in range(24 * 42):
        t = start + dt.timedelta(hours=h)
        load = round(300 + 80 * math.sin((t.hour - 6) / 24 * 2 * math.pi) - (40 if t.weekday() >= 5 else 0) + R.gauss(0, 15), 1)
        rows.append((t.isoformat(sep=" "), maybe(load, 0.03), round(R.gauss(4, 4), 1)))
        if h % 97 == 0:
            rows.append(rows[-1])  # an exported duplicate
    write("energy.csv", ["timestamp", "consumption_kwh", "outdoor_temp"], rows)


def broken():
    """An export whose rows do not agree with its header: no loader can read it as a table."""
    with open("broken.csv", "w", encoding="utf-8") as f:
        f.write("id,amount\n1,10\n2,20\n3,30,extra,fields\n4,40\n")


if __name__ == "__main__":
    for make in (passengers, weather, salaries, houses, happiness, vaccinations, genes, stocks, targets, students, cars,
                 insurance, diabetes, flowers, campaigns, flights, releases, degrees, hashed_header, european, wines, energy, broken):
        make()
