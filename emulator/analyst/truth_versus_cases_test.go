package analyst

// Yes/no comparisons of two values' statistics or counts, as DataBench's boolean questions and
// analysts ask them: the reply says Yes or No first, with both values. Each verdict is computed
// here by plain pandas.
func init() {
	truthCorpus = append(truthCorpus, []truthCase{
		{class: "entity", files: "insurance.csv", q: "Is the average charges of smokers higher than that of non-smokers?",
			ref: "m = df.groupby('smoker').charges.mean()\n'Yes' if m['yes'] > m['no'] else 'No'", want: []string{"smoker` is yes or no"}},
		{class: "entity", files: "insurance.csv", q: "Do smokers have higher average charges than non-smokers?",
			ref: "m = df.groupby('smoker').charges.mean()\n['Yes' if m['yes'] > m['no'] else 'No', m['no']]"},
		{class: "entity", files: "insurance.csv", q: "Are there more smokers than non-smokers?",
			ref: "c = df.smoker.value_counts()\n['Yes' if c['yes'] > c['no'] else 'No', int(c['yes']), int(c['no'])]"},
		{class: "entity", files: "insurance.csv", q: "Is the average bmi of males greater than the average bmi of females?",
			ref: "m = df.groupby('sex').bmi.mean()\n['Yes' if m['male'] > m['female'] else 'No', m['female']]"},
		{class: "entity", files: "insurance.csv", q: "Is the median charges in the southeast lower than in the northwest?",
			ref: "m = df.groupby('region').charges.median()\n['Yes' if m['southeast'] < m['northwest'] else 'No', m['northwest']]"},
		{class: "entity", files: "insurance.csv", q: "Does the northeast region have more people than the southeast?",
			ref: "c = df.region.value_counts()\n['Yes' if c['northeast'] > c['southeast'] else 'No', int(c['northeast'])]"},
		{class: "entity", files: "flights.csv", q: "Is the average arrival delay of AA higher than that of UA?",
			ref: "m = df.groupby('carrier').arr_delay.mean()\n['Yes' if m['AA'] > m['UA'] else 'No', m['AA'], m['UA']]"},
		{class: "entity", files: "flights.csv", q: "Is the median dep_delay of WN lower than the median dep_delay of B6?",
			ref: "m = df.groupby('carrier').dep_delay.median()\n['Yes' if m['WN'] < m['B6'] else 'No', m['B6']]"},
		{class: "entity", files: "passengers.csv", q: "Do survivors pay a higher average fare than non-survivors?",
			ref: "m = df.groupby('Survived').Fare.mean()\n['Yes' if m[1] > m[0] else 'No', m[0], m[1]]"},
		{class: "entity", files: "passengers.csv", q: "Is the average age of male passengers higher than that of female passengers?",
			ref: "m = df.groupby('Sex').Age.mean()\n['Yes' if m['male'] > m['female'] else 'No', m['female']]"},
		{class: "entity", files: "salaries.csv", q: "Do remote employees have a higher median salary than office employees?",
			ref: "m = df.groupby('work_mode').salary.median()\n['Yes' if m['Remote'] > m['Office'] else 'No', m['Remote']]"},
		{class: "entity", files: "cars.csv", q: "Is the average horsepower of usa cars greater than that of japan cars?",
			ref: "m = df.groupby('origin').horsepower.mean()\n['Yes' if m['usa'] > m['japan'] else 'No', m['usa'], m['japan']]"},
		{class: "entity", files: "cars.csv", q: "Are there more cars from europe than from japan?",
			ref: "c = df.origin.value_counts()\n['Yes' if c['europe'] > c['japan'] else 'No', int(c['japan'])]"},
		{class: "entity", files: "houses.csv", q: "Are there more houses with 3 bedrooms than with 4 bedrooms?",
			ref: "c = df.bedrooms.value_counts()\n['Yes' if c[3] > c[4] else 'No', int(c[3]), int(c[4])]"},
		{class: "entity", files: "cars.csv", q: "Do 4-cylinder cars have a higher average mpg than 6-cylinder cars?",
			ref: "m = df.groupby('cylinders').mpg.mean()\n['Yes' if m[4] > m[6] else 'No', m[4], m[6]]"},
		{class: "entity", files: "cars.csv", q: "Are there more 4-cylinder cars than 8-cylinder cars?",
			ref: "c = df.cylinders.value_counts()\n['Yes' if c[4] > c[8] else 'No', int(c[8])]"},
		{class: "conditions", files: "salaries.csv", q: "What is the median salary of women in Engineering?",
			ref: "df[(df.gender == 'F') & (df.department == 'Engineering')].salary.median()", want: []string{"`gender` is F"}},
		{class: "entity", files: "passengers.csv", q: "Did more women survive than men?",
			ref: "c = df[df.Survived == 1].Sex.value_counts()\n['Yes' if c['female'] > c['male'] else 'No', int(c['female']), int(c['male'])]"},
		{class: "entity", files: "passengers.csv", q: "Did more women than men survive?",
			ref: "c = df[df.Survived == 1].Sex.value_counts()\n['Yes' if c['female'] > c['male'] else 'No', int(c['female']), int(c['male'])]"},
	}...)
}
